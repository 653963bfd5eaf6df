import { defineFault } from '../fault.js';
import { inProgressAnswer } from '../outcomes.js';

export default defineFault({
  name: 'in-progress-on-post',
  breaks: ['final.body'],
  needs: { modes: ['sync'] },
  summary: '200 answers to POST say in_progress with no results.',
  postAnswer: (answer) => (answer.status === 200 ? { ...answer, body: { ...inProgressAnswer('Working on it.') } } : answer),
});
