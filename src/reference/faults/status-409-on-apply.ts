import { defineFault } from '../fault.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'status-409-on-apply',
  breaks: ['answer.status'],
  needs: { modes: ['async'] },
  summary: 'POST /apply answers 409 with a JSON error.',
  refuseCall: (call) => (call.kind === 'apply' ? errorReply(409, 'another apply holds the lock for this application and environment') : undefined),
});
