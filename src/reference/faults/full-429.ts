import { defineFault } from '../fault.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'full-429',
  breaks: ['capacity.burst'],
  needs: { modes: ['async'], flags: ['--reference-max-operations', '12', '--burst', '20'] },
  summary: 'When maxOperations operations are in progress, plan and apply answer 429 instead of running at once.',
  whenFull: () => ({ ...errorReply(429, 'too many operations in progress; slow down'), headers: { 'retry-after': '1' } }),
});
