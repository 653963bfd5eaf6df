import { defineFault } from '../fault.js';
import { failedAnswer } from '../outcomes.js';

export default defineFault({
  name: 'final-changes',
  breaks: ['operation.final-stable'],
  needs: { modes: ['async'] },
  summary: 'After its final answer, reads of an operation answer failed instead.',
  readAnswer: (answer, { phase, operation }) => (phase === 'after-final' ? { ...answer, body: failedAnswer(operation.kind, operation.changeSet) } : answer),
});
