import type { Expectation } from './expectations.js';
import { faultNamed, isFaultName, runFlagsNeeded } from '../../src/reference/index.js';

// Short work and poll interval keep each run around two seconds; the contract is the same at any speed.
// The table's rows run all at once, so each sends a small burst: the burst tests load on their own.
export const TABLE_POLL_INTERVAL = 'PT0.1S';
const FAST = ['--reference-work', 'PT0.3S', '--poll-interval', TABLE_POLL_INTERVAL, '--burst', '8'];

/**
 * The `run` arguments for one row of the expectations table. A fault's row runs as a user would watch it:
 * `--reference-fault NAME` applies what the fault needs, so the table never gives those flags itself (the
 * mode only to pick one of several), and it leaves out its own speed-ups that a need sets otherwise.
 */
export function argsFor(expectation: Expectation): string[] {
  const fault = expectation.fault;
  if (fault !== undefined && !isFaultName(fault)) throw new Error(`the table names ${fault}, which is not a fault of the reference`);
  const needed = fault === undefined ? [] : runFlagsNeeded(faultNamed(fault)).map(({ flag }) => flag);
  const own = new Set([...needed, ...(expectation.flags ?? [])]);
  const fast = FAST.flatMap((value, index) => (index % 2 === 1 || own.has(value) ? [] : [value, FAST[index + 1]!]));
  const several = fault !== undefined && faultNamed(fault).needs.modes.length > 1;
  return [
    'run',
    '--reference',
    ...(fault === undefined || several ? ['--reference-mode', expectation.mode] : []),
    ...(fault !== undefined ? ['--reference-fault', fault] : []),
    ...fast,
    ...(expectation.flags ?? []),
  ];
}
