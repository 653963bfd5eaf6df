import { isoOfMs, type PropertyTimeLimit } from '../../src/core/property-time-limit.js';

/** A property time limit of `ms`, as if given by --property-time-limit. */
export function givenTimeLimit(ms: number): PropertyTimeLimit {
  return { text: isoOfMs(ms), ms, origin: { source: 'given' } };
}
