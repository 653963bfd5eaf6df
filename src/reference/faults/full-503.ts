import { defineFault } from '../fault.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'full-503',
  breaks: ['capacity.burst'],
  // Model-based runs submit at random while other work may still hold the reference full: the generated
  // plans alone keep every refusal inside the burst; two seconds of work keep the reference full while the
  // burst is in flight, however slowly a loaded machine sends it.
  needs: { modes: ['async'], flags: ['--reference-max-operations', '12', '--burst', '20', '--property', 'property/generated-plans', '--reference-work', 'PT2S'] },
  summary: 'When maxOperations operations are in progress, plan and apply answer 503 instead of running at once.',
  whenFull: () => ({ ...errorReply(503, 'too many operations in progress; try again later'), headers: { 'retry-after': '1' } }),
});
