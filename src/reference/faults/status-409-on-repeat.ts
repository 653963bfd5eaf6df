import { defineFault } from '../fault.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'status-409-on-repeat',
  breaks: ['apply.idempotent'],
  // Model-based runs apply the bundled change sets again at random; their 409s would break answer.status in
  // some runs and not in others. The generated plans alone keep the row the same every time, and two
  // seconds of work keep the repeat sent right after the 202 a repeat while running on a loaded machine.
  needs: { modes: ['mixed'], flags: ['--property', 'property/generated-plans', '--reference-work', 'PT2S'] },
  summary: 'An apply of a change set whose earlier apply has ended answers 409 "already applied".',
  refuseCall: (call) => (call.kind === 'apply' && call.earlier.ended > 0 ? errorReply(409, 'this change set was already applied') : undefined),
});
