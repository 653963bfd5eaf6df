import { defineFault } from '../fault.js';

export default defineFault({
  name: 'upper-case-outcome',
  breaks: ['operation.body'],
  needs: { modes: ['mixed'] },
  summary: 'Reads of operations write each outcome in upper case (IN_PROGRESS, SUCCEEDED), as a default enum mapping does; answers to POST are right.',
  readAnswer: (answer) =>
    answer.status !== 200 || typeof answer.body === 'string'
      ? answer
      : {
          ...answer,
          body: {
            ...answer.body,
            outcome: answer.body.outcome.toUpperCase(),
            results: answer.body.results.map((result) => ({ ...result, outcome: result.outcome.toUpperCase() })),
          },
        },
});
