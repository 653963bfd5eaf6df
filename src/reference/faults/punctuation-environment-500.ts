import { defineFault } from '../fault.js';
import { hasPunctuation } from '../input-limits.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'punctuation-environment-500',
  breaks: ['answer.status'],
  // The bundled change sets use the environment "test": only generated input finds it.
  needs: { modes: ['mixed'], property: { name: 'property/generated-plans', seed: 1 } },
  summary: 'Plan and apply answer 500 when a change\'s environment holds punctuation other than "-".',
  refuseCall: (call) =>
    call.changeSet.changes.some((change) => hasPunctuation(change.environment))
      ? errorReply(500, 'internal error: could not derive a namespace from the environment')
      : undefined,
});
