import type { Duration } from './duration.js';
import { isoOfMs, type PropertyTimeLimit } from './property-time-limit.js';

/**
 * What the run may spend, decided once from its resolved configuration (src/config/property-time-limit.ts) and
 * passed down: the runner holds driving to `run`, and every property runs within the limit `propertyTimeLimitAt`
 * gives it.
 */
export interface TimeBudget {
  /** The run's --time-limit; absent: the run is bounded only by its operations' deadlines. */
  run?: Duration;
  /**
   * Each property's time limit and where it came from: given (--property-time-limit, the config file or the
   * library's option) or derived from maxOperationDuration and the operations one case waits for. Absent: each
   * property gets what the run's limit leaves when the properties start.
   */
  property?: PropertyTimeLimit;
}

/**
 * The time limit of each property once the properties start, `remainingMs` of the run's limit then left: the
 * one the configuration decided, else all that is left (they run at once, so each may use all of it; those that
 * take turns share it, see `isShared`). A restart needs none of it: it happens at the start, before the
 * properties. Never zero: a property with no time left still starts, stops at once and reports that it got no case.
 */
export function propertyTimeLimitAt(budget: TimeBudget, remainingMs: number | undefined): PropertyTimeLimit {
  if (budget.property) return budget.property;
  if (budget.run === undefined || remainingMs === undefined) throw new Error('properties run within a time limit: give the run one, or the properties');
  return budgetShare(remainingMs);
}

/** What the run's limit leaves a property, as a limit said to come from the run's --time-limit. */
export function budgetShare(remainingMs: number): PropertyTimeLimit {
  const ms = Math.max(1, Math.floor(remainingMs));
  return { text: isoOfMs(ms), ms, origin: { source: 'budget' } };
}

/** Whether properties that take turns share the limit: they do when it is what the run's limit left for all of them. */
export function isShared(limit: PropertyTimeLimit): boolean {
  return limit.origin.source === 'budget';
}
