import { defineFault } from '../fault.js';

export default defineFault({
  name: 'read-status-202',
  breaks: ['operation.status'],
  needs: { modes: ['async'] },
  summary: 'Reads of running operations answer 202.',
  readAnswer: (answer, read) => (read.phase === 'running' ? { ...answer, status: 202 } : answer),
});
