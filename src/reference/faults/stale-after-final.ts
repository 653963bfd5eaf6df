import { defineFault } from '../fault.js';
import { inProgressAnswer, progressNote } from '../outcomes.js';

/** Longer than the reads right after a final answer take, shorter than a run's end is after its first operations. */
const STALE_AFTER_MS = 500;
const LAST_STEP = 0.999;

export default defineFault({
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
