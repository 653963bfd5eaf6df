import { defineFault } from '../fault.js';

export default defineFault({
  name: 'empty-progress-note',
  breaks: ['operation.in-progress-description'],
  needs: { modes: ['async'] },
  summary: 'in_progress reads have an empty description.',
  readAnswer: (answer, read) => (read.phase === 'running' && typeof answer.body !== 'string' ? { ...answer, body: { ...answer.body, description: '' } } : answer),
});
