import { defineFault } from '../fault.js';

export default defineFault({
  name: 'missing-result',
  breaks: ['final.results-match-changes'],
  needs: { modes: ['sync', 'async'] },
  summary: 'Final answers leave out the result of the last change.',
  finalAnswer: (answer) => ({ ...answer, results: answer.results.slice(0, -1) }),
});
