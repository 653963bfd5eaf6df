import { defineFault } from '../fault.js';
import { inProgressAnswer, progressNote } from '../outcomes.js';

const LAST_STEP = 0.999;

export default defineFault({
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
