import { setTimeout as sleep } from 'node:timers/promises';
import { defineFault } from '../fault.js';
import type { Operation } from '../operations.js';
import { inProgressAnswer, progressNote, failedAnswer } from '../outcomes.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/operation-final.ts`: an operation after its final answer. */

const LAST_STEP = 0.999;

const inProgressAfterFinal = defineFault({
  name: 'in-progress-after-final',
  breaks: ['operation.no-in-progress-after-final'],
  needs: { modes: ['async'] },
  summary: 'After its final answer, reads of an operation alternate between in_progress and the final answer.',
  // The first read after the final answer already relapses, so a single look after the final catches it.
  readAnswer: (answer, { phase, operation }) =>
    phase === 'after-final' && operation.history.readsAfterFinal % 2 === 1
      ? { ...answer, body: inProgressAnswer(progressNote(operation.kind, operation.changeSet, LAST_STEP)) }
      : answer,
});

/** Longer than the reads right after a final answer take, shorter than a run's end is after its first operations. */
const STALE_AFTER_MS = 500;

const staleAfterFinal = defineFault({
  name: 'stale-after-final',
  breaks: ['operation.no-in-progress-after-final'],
  needs: { modes: ['async'] },
  summary: 'Half a second after its final answer was first read, an operation answers in_progress again, as a stale replica would.',
  // The reads right after the final answer see it; only a read that comes back later finds the relapse.
  readAnswer: (answer, { phase, operation, now }) =>
    phase === 'after-final' && now - (operation.history.finalGivenAt ?? now) > STALE_AFTER_MS
      ? { ...answer, body: inProgressAnswer(progressNote(operation.kind, operation.changeSet, LAST_STEP)) }
      : answer,
});

const finalChanges = defineFault({
  name: 'final-changes',
  breaks: ['operation.final-stable'],
  needs: { modes: ['async'] },
  summary: 'After its final answer, reads of an operation answer failed instead.',
  readAnswer: (answer, { phase, operation }) => (phase === 'after-final' ? { ...answer, body: failedAnswer(operation.kind, operation.changeSet) } : answer),
});

const forgetAfterFinal = defineFault({
  name: 'forget-after-final',
  breaks: ['operation.final-retained'],
  needs: { modes: ['async'] },
  summary: 'An operation is forgotten as soon as its final answer was read once.',
  forgetsOnFinalRead: true,
});

/**
 * Once an operation has given its final answer, each read of it rebuilds a cache entry, which takes
 * REFRESH_MS; a read that arrives while two others are rebuilding it finds the entry half-built and says
 * in_progress. The kit's poller never gets there: at the tick that brings the final answer at most its two
 * concurrent readers are still in flight, and its reads after that come one at a time.
 */
const REFRESH_MS = 100;
const READERS_IN_FLIGHT_TO_RACE = 2;

const refreshing = new WeakMap<Operation, number>();

const racingReads = defineFault({
  name: 'racing-reads',
  breaks: ['operation.no-in-progress-after-final'],
  // The scenarios never have three reads of one operation in flight after its final answer; model-based runs do.
  needs: { modes: ['async'], property: { name: 'property/model-based-runs', seed: 1 } },
  summary: 'After its final answer, a read of an operation that arrives while two other reads of it are still being answered says in_progress.',
  readAnswer: async (answer, { phase, operation }) => {
    if (phase !== 'after-final') return answer;
    const inFlight = refreshing.get(operation) ?? 0;
    refreshing.set(operation, inFlight + 1);
    // Not tied to the closing signal: hundreds of reads may wait at once, and an answer after closing goes nowhere.
    await sleep(REFRESH_MS, undefined, { ref: false });
    refreshing.set(operation, (refreshing.get(operation) ?? 1) - 1);
    return inFlight >= READERS_IN_FLIGHT_TO_RACE ? { ...answer, body: inProgressAnswer(progressNote(operation.kind, operation.changeSet, LAST_STEP)) } : answer;
  },
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [inProgressAfterFinal, staleAfterFinal, finalChanges, forgetAfterFinal, racingReads] as const;
