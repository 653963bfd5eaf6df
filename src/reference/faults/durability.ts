import { defineFault } from '../fault.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/durability.ts`: a restart of the provisioner. */

const lostOnRestart = defineFault({
  name: 'lost-on-restart',
  breaks: ['durability.survives-restart'],
  needs: { modes: ['async'], restart: true },
  summary: 'Operations are never read back from the store: after a restart every operation accepted before it answers 404.',
  restore: () => [],
});

const restoredNeverEnd = defineFault({
  name: 'restored-never-end',
  breaks: ['durability.survives-restart'],
  needs: { modes: ['async'], restart: true, flags: ['--max-operation-duration', 'PT5S'] },
  summary: 'Operations whose work was in progress at a restart are known afterwards but stay in_progress forever.',
  restore: (stored, now) => stored.map((operation) => (operation.finishesAt > now ? { ...operation, finishesAt: Number.POSITIVE_INFINITY } : operation)),
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [lostOnRestart, restoredNeverEnd] as const;
