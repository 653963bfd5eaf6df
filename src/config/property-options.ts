import type { PropertyRunSettings } from '../runner/properties.js';
import type { PropertySuite } from '../../suites/properties/property.js';
import { parsePositiveDuration } from '../core/duration.js';
import { UsageError } from '../errors.js';

/** The run command's property flags as yargs hands them over (numbers stay text, so that errors name the flag). */
export interface PropertyFlags {
  properties: boolean;
  property?: string;
  seed?: string;
  path?: string;
  maxExamples?: string;
  /** Absent when neither a flag, the config file nor the profile gives it: the run's budget decides. */
  propertyTimeLimit?: string;
  allowApplyGenerated: boolean;
}

/** The run's property settings, and whether their time limit was asked for or is only the default. */
export interface ResolvedPropertyOptions extends PropertyRunSettings {
  /** --property-time-limit came from a flag, the config file or the profile; otherwise a run with --time-limit derives it. */
  timeLimitGiven: boolean;
}

export const DEFAULT_PROPERTY_TIME_LIMIT = 'PT60S';

// fast-check seeds are 32-bit integers.
const SEED_LIMIT = 2 ** 31;

/** Turns the property flags into the run's property settings; every problem is a UsageError naming its flag. */
export function resolvePropertyOptions(flags: PropertyFlags, known: readonly PropertySuite[], profileMaxExamples?: number): ResolvedPropertyOptions {
  const timeLimit = parsePositiveDuration(flags.propertyTimeLimit ?? DEFAULT_PROPERTY_TIME_LIMIT);
  if (!timeLimit.ok) throw new UsageError('--property-time-limit', timeLimit.error);
  const seed = flags.seed === undefined ? undefined : integerFlag('--seed', flags.seed, -SEED_LIMIT, SEED_LIMIT - 1);
  const maxExamples = flags.maxExamples === undefined ? profileMaxExamples : integerFlag('--max-examples', flags.maxExamples, 1, 100_000);
  // A model-based path carries the commands' replay path after an '@'; one run in batches of another size than the property's own starts with `SIZE/`.
  if (flags.path !== undefined && !/^(\d+\/)?\d+(:\d+)*(@\S+)?$/.test(flags.path)) {
    throw new UsageError('--path', `"${flags.path}" is not a fast-check path (numbers joined by colons, e.g. 3:0:1), as a failed property prints it`);
  }
  if (flags.path !== undefined && seed === undefined) throw new UsageError('--path', 'replays a case only together with the --seed it was printed with');
  const suites = selectSuites(flags, known);
  if (flags.path !== undefined && suites.length !== 1) {
    throw new UsageError('--path', 'a path belongs to one property: name it with --property NAME, as the replay line prints it');
  }
  return {
    suites,
    maxExamples,
    timeLimitMs: timeLimit.ms,
    timeLimitGiven: flags.propertyTimeLimit !== undefined,
    seed,
    path: flags.path,
    allowApplyGenerated: flags.allowApplyGenerated,
  };
}

function selectSuites(flags: PropertyFlags, known: readonly PropertySuite[]): readonly PropertySuite[] {
  if (!flags.properties) {
    for (const [flag, value] of [['--property', flags.property], ['--seed', flags.seed], ['--path', flags.path], ['--max-examples', flags.maxExamples]] as const) {
      if (value !== undefined) throw new UsageError(flag, 'cannot be combined with --no-properties');
    }
    return [];
  }
  if (flags.property === undefined) return known;
  // The report names properties with their family (`property/model-based-runs`); the bare name is as clear.
  const chosen = known.find((suite) => suite.name === flags.property || suite.name === `property/${flags.property}`);
  if (!chosen) throw new UsageError('--property', `unknown property "${flags.property}" (known: ${known.map((suite) => suite.name).join(', ')})`);
  return [chosen];
}

function integerFlag(flag: string, text: string, min: number, max: number): number {
  const value = /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new UsageError(flag, `"${text}" is not a whole number from ${min} to ${max}`);
  return value;
}
