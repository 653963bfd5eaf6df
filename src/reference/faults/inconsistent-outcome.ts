import { defineFault } from '../fault.js';
import { failedResult } from '../outcomes.js';

export default defineFault({
  name: 'inconsistent-outcome',
  breaks: ['final.outcome-consistent'],
  needs: { modes: ['mixed'] },
  summary: 'Final answers say succeeded while their first result failed.',
  finalAnswer: (answer, call) => {
    // The overall outcome stays succeeded while the first change failed.
    const [, ...rest] = answer.results;
    return { ...answer, results: [failedResult(call.kind, call.changeSet.changes[0]!), ...rest] };
  },
});
