import { defineFault } from '../fault.js';
import { failedResult } from '../outcomes.js';

export default defineFault({
  name: 'drifting-plan',
  breaks: ['plan.repeatable'],
  needs: { modes: ['mixed'] },
  summary: 'Every plan of a change set after its first says its first change failed (and so the plan failed).',
  finalAnswer: (answer, call) => {
    if (call.kind !== 'plan' || call.earlier.running + call.earlier.ended === 0) return answer;
    // The overall outcome follows the results, so that only the repeat rule is broken.
    const [, ...rest] = answer.results;
    return { ...answer, outcome: 'failed', results: [failedResult('plan', call.changeSet.changes[0]!), ...rest] };
  },
});
