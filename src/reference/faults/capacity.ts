import { defineFault } from '../fault.js';
import { errorReply } from '../responses.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/capacity.ts`: a burst of calls. */

const full503 = defineFault({
  name: 'full-503',
  breaks: ['capacity.burst'],
  // Model-based runs submit at random while other work may still hold the reference full: the generated
  // plans alone keep every refusal inside the burst; two seconds of work keep the reference full while the
  // burst is in flight, however slowly a loaded machine sends it.
  needs: { modes: ['async'], flags: ['--reference-max-operations', '12', '--burst', '20', '--property', 'property/generated-plans', '--reference-work', 'PT2S'] },
  summary: 'When maxOperations operations are in progress, plan and apply answer 503 instead of running at once.',
  whenFull: () => ({ ...errorReply(503, 'too many operations in progress; try again later'), headers: { 'retry-after': '1' } }),
});

const full429 = defineFault({
  name: 'full-429',
  breaks: ['capacity.burst'],
  // Model-based runs submit at random while other work may still hold the reference full: the generated
  // plans alone keep every refusal inside the burst; two seconds of work keep the reference full while the
  // burst is in flight, however slowly a loaded machine sends it.
  needs: { modes: ['async'], flags: ['--reference-max-operations', '12', '--burst', '20', '--property', 'property/generated-plans', '--reference-work', 'PT2S'] },
  summary: 'When maxOperations operations are in progress, plan and apply answer 429 instead of running at once.',
  whenFull: () => ({ ...errorReply(429, 'too many operations in progress; slow down'), headers: { 'retry-after': '1' } }),
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [full503, full429] as const;
