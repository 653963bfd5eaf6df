import type { Expectation } from './expectations.js';

// Short work and poll interval keep each run around two seconds; the contract is the same at any speed.
// The table's rows run all at once, so each sends a small burst: the burst tests load on their own.
export const TABLE_POLL_INTERVAL = 'PT0.1S';
const FAST = ['--reference-work', 'PT0.3S', '--poll-interval', TABLE_POLL_INTERVAL, '--burst', '8'];

/** The `run` arguments for one row of the expectations table. */
export function argsFor(expectation: Expectation): string[] {
  // A row that needs its own value of one of these flags says so; a flag given twice is a usage error.
  const own = new Set(expectation.flags ?? []);
  const fast = FAST.flatMap((value, index) => (index % 2 === 1 || own.has(value) ? [] : [value, FAST[index + 1]!]));
  return [
    'run',
    '--reference',
    '--reference-mode',
    expectation.mode,
    ...(expectation.fault ? ['--reference-fault', expectation.fault] : []),
    ...fast,
    ...(expectation.flags ?? []),
  ];
}
