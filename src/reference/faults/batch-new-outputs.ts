import { randomBytes } from 'node:crypto';
import { defineFault } from '../fault.js';

/** The fewest changes an apply has for the fault to show: a set of one change is handled alone. */
const BATCH = 2;

export default defineFault({
  name: 'batch-new-outputs',
  breaks: ['apply.idempotent', 'apply.repeat-while-running'],
  // Only sets of several changes: change sets of one change, as the guide's examples are, never show it.
  needs: { modes: ['mixed'] },
  summary: 'An apply of two or more changes puts the id of its batch job, new for each apply, into the outputs of every change.',
  finalAnswer: (answer, call) => {
    if (call.kind !== 'apply' || call.changeSet.changes.length < BATCH) return answer;
    const batch = `batch-${randomBytes(4).toString('hex')}`;
    return { ...answer, results: answer.results.map((result) => ({ ...result, outputs: { ...result.outputs, batch } })) };
  },
});
