import { defineFault } from '../fault.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'full-503',
  breaks: ['capacity.burst'],
  needs: { modes: ['async'], flags: ['--reference-max-operations', '12', '--burst', '20'] },
  summary: 'When maxOperations operations are in progress, plan and apply answer 503 instead of running at once.',
  whenFull: () => ({ ...errorReply(503, 'too many operations in progress; try again later'), headers: { 'retry-after': '1' } }),
});
