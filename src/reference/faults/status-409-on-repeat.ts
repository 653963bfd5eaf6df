import { defineFault } from '../fault.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'status-409-on-repeat',
  breaks: ['apply.idempotent', 'answer.status'],
  needs: { modes: ['mixed'] },
  summary: 'An apply of a change set whose earlier apply has ended answers 409 "already applied".',
  refuseCall: (call) => (call.kind === 'apply' && call.earlier.ended > 0 ? errorReply(409, 'this change set was already applied') : undefined),
});
