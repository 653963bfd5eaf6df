import { defineFault } from '../fault.js';

// A queue worker that picks work up late: half the work time, but never more than half a second.
const MAX_REGISTRATION_DELAY_MS = 500;

export default defineFault({
  name: 'late-registration',
  breaks: ['operation.not-lost'],
  needs: { modes: ['async'] },
  summary: 'An accepted operation answers 404 until a worker picks it up, up to 500 ms after the 202.',
  operationTimes: (times, accepted) => ({ ...times, knownFrom: accepted.at + Math.min(accepted.workMs / 2, MAX_REGISTRATION_DELAY_MS) }),
});
