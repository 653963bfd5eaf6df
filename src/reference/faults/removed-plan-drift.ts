import { defineFault } from '../fault.js';
import { failedResult } from '../outcomes.js';

export default defineFault({
  name: 'removed-plan-drift',
  breaks: ['plan.repeatable'],
  // Only removed changes: change sets that only create, as the guide's examples do, never show it.
  needs: { modes: ['mixed'] },
  summary: 'Plans of a change set take turns between two replicas, and the one behind says the removed changes cannot be found (so every second plan fails).',
  finalAnswer: (answer, call) => {
    // Every second plan of the same change set: two plans in a row always disagree, whatever came before them.
    if (call.kind !== 'plan' || (call.earlier.running + call.earlier.ended) % 2 === 0) return answer;
    const removed = new Set(call.changeSet.changes.flatMap((change, index) => (change.action === 'removed' ? [index] : [])));
    if (removed.size === 0) return answer;
    // Results come in the order of the changes; the overall outcome follows them, so that only the repeat rule is broken.
    const results = answer.results.map((result, index) => (removed.has(index) ? failedResult('plan', call.changeSet.changes[index]!) : result));
    return { ...answer, outcome: 'failed', results };
  },
});
