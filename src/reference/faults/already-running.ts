import { defineFault } from '../fault.js';
import type { ChangeResult } from '../outcomes.js';

export default defineFault({
  name: 'already-running',
  breaks: ['apply.repeat-while-running'],
  // Two seconds of work: the repeat is sent right after the 202, and must find the first still running even on a loaded machine.
  needs: { modes: ['async'], flags: ['--reference-work', 'PT2S'] },
  summary: 'An apply sent again while an apply of the same change set is in progress ends failed: "already running".',
  finalAnswer: (answer, call) => {
    if (call.kind !== 'apply' || call.earlier.running === 0) return answer;
    const results: ChangeResult[] = call.changeSet.changes.map(({ id, environment }) => ({
      id,
      environment,
      outcome: 'failed',
      description: `Not applied: an apply of ${id} in ${environment} is already running.`,
    }));
    return { outcome: 'failed', description: 'An apply of this change set is already running.', results };
  },
});
