import { defineFault } from '../fault.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/operation-lifecycle.ts`: an operation's life: registered, and ended in time. */

// A queue worker that picks work up late: half the work time, but never more than half a second.
const MAX_REGISTRATION_DELAY_MS = 500;

const lateRegistration = defineFault({
  name: 'late-registration',
  breaks: ['operation.not-lost'],
  needs: { modes: ['async'] },
  summary: 'An accepted operation answers 404 until a worker picks it up, up to 500 ms after the 202.',
  operationTimes: (times, accepted) => ({ ...times, knownFrom: accepted.at + Math.min(accepted.workMs / 2, MAX_REGISTRATION_DELAY_MS) }),
});

const neverFinishes = defineFault({
  name: 'never-finishes',
  breaks: ['operation.within-max-duration'],
  needs: { modes: ['async'], flags: ['--max-operation-duration', 'PT1S'] },
  summary: 'Operations stay in_progress forever.',
  operationTimes: (times) => ({ ...times, finishesAt: Number.POSITIVE_INFINITY }),
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [lateRegistration, neverFinishes] as const;
