import type { Duration } from '../core/duration.js';
import type { DurationSetting } from '../core/judge-context.js';
import { chainInWords, isoOfMs, type PropertyTimeLimit } from '../core/property-time-limit.js';
import type { TimeBudget } from '../core/time-budget.js';
import { ConfigError } from '../errors.js';
import { longestChain } from './property-catalog.js';

/** What one operation of a case may take, as the run is configured. */
export interface OperationTiming {
  maxOperationDuration: DurationSetting;
  pollInterval: Duration;
  answerTimeout: Duration;
}

/**
 * The shortest time limit that fits one case of a property whose cases wait for `chain` operations one after another:
 *
 *   chain × (maxOperationDuration + answerTimeout + 2 × pollInterval)
 *
 * Each operation of the chain is submitted (its answer within the answer timeout), works for at most
 * maxOperationDuration after its 202, is seen final at the next read (a poll interval) and read once more after
 * its final answer (another). Certify's PT10S poll interval and answer timeout with a PT15M registration: PT31M.
 */
export function propertyTimeLimitMs(chain: number, timing: OperationTiming): number {
  return chain * (timing.maxOperationDuration.ms + timing.answerTimeout.ms + 2 * timing.pollInterval.ms);
}

/** What decides the time limit of the run's properties besides the one given. */
export interface PropertyLimitSources extends OperationTiming {
  /** The properties of the run, by catalog name. */
  names: readonly string[];
  /** Generated change sets are applied (--allow-apply-generated without --plan-only): their cases wait longer. */
  appliesGenerated: boolean;
  /** Whether the user gave maxOperationDuration (the flag, or a registration they named): only then is a too short limit known to be too short. */
  maxOperationDurationGiven: boolean;
  /** The run-wide --time-limit: without a property time limit, the properties get what it leaves. */
  runTimeLimit?: Duration;
}

/**
 * The properties' time limit: the one given, refused when it cannot fit one case of a selected property and the
 * operations' length is known; none when the run's budget decides it; else derived from the operations' length.
 */
export function resolvePropertyTimeLimit(given: PropertyTimeLimit | undefined, sources: PropertyLimitSources): PropertyTimeLimit | undefined {
  const longest = longestChain(sources.names, sources.appliesGenerated);
  if (longest === undefined) return given;
  const needsMs = propertyTimeLimitMs(longest.chain, sources);
  if (given !== undefined) {
    // With the PT30M default nothing is known of the work's length: the user's limit stands.
    if (sources.maxOperationDurationGiven && given.ms < needsMs) {
      throw new ConfigError(
        '--property-time-limit',
        `${given.text} cannot fit one case of ${longest.name}: its cases wait for ${chainInWords(longest.chain, sources.maxOperationDuration)}; give at least ${isoOfMs(needsMs)} or leave it out`,
      );
    }
    return given;
  }
  if (sources.runTimeLimit !== undefined) return undefined;
  return { text: isoOfMs(needsMs), ms: needsMs, origin: { source: 'derived', chain: longest.chain, maxOperationDuration: sources.maxOperationDuration } };
}

/**
 * The run's time budget, from its resolved configuration: its --time-limit, and the properties' limit as
 * `resolvePropertyTimeLimit` decided it. The one place the kit and the library build it; the runner and the
 * properties read it.
 */
export function timeBudgetOf(config: { timeLimit?: Duration; properties: { timeLimit?: PropertyTimeLimit } }): TimeBudget {
  return { ...(config.timeLimit && { run: config.timeLimit }), ...(config.properties.timeLimit && { property: config.properties.timeLimit }) };
}
