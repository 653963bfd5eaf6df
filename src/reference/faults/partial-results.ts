import { defineFault } from '../fault.js';
import { inProgressAnswer } from '../outcomes.js';

export default defineFault({
  name: 'partial-results',
  breaks: ['operation.in-progress-results-empty'],
  needs: { modes: ['async'] },
  summary: 'in_progress reads carry the results done so far.',
  readAnswer: (answer, read) => {
    if (read.phase !== 'running' || typeof answer.body === 'string') return answer;
    // The results of the changes finished by now; at least one, so that even the first read shows some.
    const results = read.operation.final.results;
    const done = results.slice(0, Math.max(1, Math.floor(read.fraction * results.length)));
    return { ...answer, body: inProgressAnswer(answer.body.description, done) };
  },
});
