import { defineFault } from '../fault.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'missing-properties-500',
  breaks: ['answer.status'],
  // The bundled change sets all carry a properties field: only generated input finds it.
  needs: { modes: ['mixed'], property: { name: 'property/generated-plans', seed: 1 } },
  summary: 'Plan and apply answer 500 when a change has no properties field (code that reads properties.size).',
  refuseCall: (call) =>
    call.changeSet.changes.some((change) => change.properties === undefined)
      ? errorReply(500, "internal error: cannot read properties of undefined (reading 'size')")
      : undefined,
});
