import type { Duration } from './duration.js';
import type { DurationSetting } from './judge-context.js';

/**
 * Where a property's time limit came from: given (flag, config file or library option), derived from the
 * operations its cases wait for (see src/config/property-time-limit.ts), or what the run's --time-limit left.
 */
export type PropertyTimeLimitOrigin =
  | { source: 'given' }
  | { source: 'derived'; chain: number; maxOperationDuration: DurationSetting }
  | { source: 'budget' };

/** A property's time limit and where it came from, so that a property it stopped can say both. */
export interface PropertyTimeLimit extends Duration {
  origin: PropertyTimeLimitOrigin;
}

/** The maxOperationDuration and where it came from, as the kit's messages name it. */
export function maxOperationDurationInWords(setting: DurationSetting): string {
  switch (setting.source) {
    case 'registration':
      return `${setting.text} (maxOperationDuration of the registration)`;
    case 'flag':
      return `${setting.text} (given by --max-operation-duration)`;
    case 'default':
      return `${setting.text} (no maxOperationDuration was given)`;
  }
}

/** What a case of a property waits for one after another, e.g. `2 operations of up to PT15M (…) one after another`. */
export function chainInWords(chain: number, maxOperationDuration: DurationSetting): string {
  const duration = maxOperationDurationInWords(maxOperationDuration);
  return chain === 1 ? `an operation of up to ${duration}` : `${chain} operations of up to ${duration} one after another`;
}

/** `PT10M (given by --property-time-limit)`, `PT31M (derived from …)`, `PT4M12S (what the run's --time-limit left)`. */
export function propertyTimeLimitInWords(limit: PropertyTimeLimit): string {
  switch (limit.origin.source) {
    case 'given':
      return `${limit.text} (given by --property-time-limit)`;
    case 'derived':
      return `${limit.text} (derived from ${chainInWords(limit.origin.chain, limit.origin.maxOperationDuration)} and the calls around them)`;
    case 'budget':
      return `${limit.text} (what the run's --time-limit left)`;
  }
}

/** ISO 8601 text of a duration known in milliseconds, in hours, minutes and seconds: `PT30M40S`, `PT0.5S`. */
export function isoOfMs(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const seconds = Number(((whole % 60_000) / 1000).toFixed(3));
  const parts = `${hours > 0 ? `${hours}H` : ''}${minutes > 0 ? `${minutes}M` : ''}${seconds > 0 || (hours === 0 && minutes === 0) ? `${seconds}S` : ''}`;
  return `PT${parts}`;
}
