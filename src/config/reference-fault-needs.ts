import { RUN_OPTION_NAMES, type RunOptions } from './run-options.js';
import { UsageError } from '../errors.js';
import { faultNamed, isFaultName } from '../reference/faults/index.js';
import { flagsInWords, runFlagsNeeded, type NeededFlag } from '../reference/fault-needs.js';

/** The options with what the fault needs filled in, and the line that tells the user so. */
export interface FaultNeedsApplied {
  options: RunOptions;
  line?: string;
}

/** The option of a long flag: `--reference-max-operations` is `referenceMaxOperations`. */
function optionOf(flag: string): keyof RunOptions {
  const name = flag.slice(2).replace(/-([a-z])/g, (_dash, letter: string) => letter.toUpperCase());
  if (!(RUN_OPTION_NAMES as readonly string[]).includes(name)) throw new Error(`a fault needs ${flag}, which is not a run flag`);
  return name as keyof RunOptions;
}

/**
 * Fills in what `--reference-fault NAME` needs to break its rules and the command line left out; a flag given
 * with another value is refused, since the run would then report the fault's rules as holding. An unknown
 * name is left to the resolver, which refuses it.
 */
export function applyFaultNeeds(given: RunOptions): FaultNeedsApplied {
  const name = given.referenceFault;
  if (name === undefined || !isFaultName(name)) return { options: given };
  const fault = faultNamed(name);
  const { modes } = fault.needs;
  const givenMode = given.referenceMode;
  const needed = runFlagsNeeded(fault, givenMode !== undefined && modes.includes(givenMode) ? givenMode : modes[0]);
  const valueGiven = ({ flag }: NeededFlag): string | undefined => {
    const value = given[optionOf(flag)];
    return value === undefined ? undefined : String(value);
  };
  const clashes = needed.filter((need) => valueGiven(need) !== undefined && valueGiven(need) !== need.value);
  const change = clashes.map((need) => `${need.flag} ${valueGiven(need)!}`);
  if (given.properties === false && needed.some(({ flag }) => flag === '--property')) change.push('--no-properties');
  if (change.length > 0) {
    const wanted = clashes.map((need) => (need.flag === '--reference-mode' ? `--reference-mode ${modes.join(' or ')}` : `${need.flag} ${need.value}`));
    const needs = wanted.length > 0 ? wanted.join(' ') : flagsInWords(needed.filter(({ flag }) => flag === '--property'));
    throw new UsageError('--reference-fault', `${name} needs ${needs}; change ${change.join(' ')} or leave ${change.length > 1 ? 'them' : 'it'} out`);
  }
  const missing = needed.filter((need) => valueGiven(need) === undefined);
  if (missing.length === 0) return { options: given };
  const options: RunOptions = { ...given, ...Object.fromEntries(missing.map((need) => [optionOf(need.flag), need.value])) };
  const applied = missing.length === needed.length ? 'applied' : `applied ${flagsInWords(missing)}, the rest was given`;
  return { options, line: `provisioner-conformance: the fault ${name} needs ${flagsInWords(needed)}: ${applied}` };
}
