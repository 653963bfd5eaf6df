import { randomBytes } from 'node:crypto';
import { defineFault } from '../fault.js';

export default defineFault({
  name: 'updated-new-outputs',
  breaks: ['apply.idempotent', 'apply.repeat-while-running'],
  // Only updated changes: change sets that only create, as the guide's examples do, never show it.
  needs: { modes: ['mixed'] },
  summary: 'Every apply of an updated change reports a new revision in its outputs, as if the update were made anew each time.',
  // Results come in the order of the changes, so the change behind each result is the one at its index.
  finalAnswer: (answer, call) =>
    call.kind !== 'apply'
      ? answer
      : {
          ...answer,
          results: answer.results.map((result, index) =>
            call.changeSet.changes[index]?.action === 'updated' ? { ...result, outputs: { ...result.outputs, revision: randomBytes(4).toString('hex') } } : result,
          ),
        },
});
