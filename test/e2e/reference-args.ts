import type { Expectation } from './expectations.js';

// Short work and poll interval keep each run around two seconds; the contract is the same at any speed.
const FAST = ['--reference-work', 'PT0.3S', '--poll-interval', 'PT0.1S'];

/** The `run` arguments for one row of the expectations table. */
export function argsFor(expectation: Expectation): string[] {
  return [
    'run',
    '--reference',
    '--reference-mode',
    expectation.mode,
    ...(expectation.fault ? ['--reference-fault', expectation.fault] : []),
    ...FAST,
    ...(expectation.flags ?? []),
  ];
}
