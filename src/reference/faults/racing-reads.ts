import { setTimeout as sleep } from 'node:timers/promises';
import { defineFault } from '../fault.js';
import type { Operation } from '../operations.js';
import { inProgressAnswer, progressNote } from '../outcomes.js';

/**
 * Once an operation has given its final answer, each read of it rebuilds a cache entry, which takes
 * REFRESH_MS; a read that arrives while two others are rebuilding it finds the entry half-built and says
 * in_progress. The kit's poller never gets there: at the tick that brings the final answer at most its two
 * concurrent readers are still in flight, and its reads after that come one at a time.
 */
const REFRESH_MS = 100;
const READERS_IN_FLIGHT_TO_RACE = 2;
const LAST_STEP = 0.999;

const refreshing = new WeakMap<Operation, number>();

export default defineFault({
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
