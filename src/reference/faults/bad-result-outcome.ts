import { defineFault } from '../fault.js';

export default defineFault({
  name: 'bad-result-outcome',
  breaks: ['final.result-shape'],
  needs: { modes: ['mixed'] },
  summary: 'Results say outcome "ok" instead of succeeded.',
  finalAnswer: (answer) => ({ ...answer, results: answer.results.map((result) => ({ ...result, outcome: 'ok' })) }),
});
