import { BudgetSpent } from '../core/budget-spent.js';
import type { Duration } from '../core/duration.js';
import type { PropertyTimeLimitOrigin } from '../core/property-time-limit.js';

/** The run-wide deadline of --time-limit: a signal that aborts when it passes, and what is left of it. */
export interface RunBudget {
  readonly limit: Duration;
  /** Aborts with a {@link BudgetSpent} reason once the limit has passed. */
  readonly signal: AbortSignal;
  remainingMs(): number;
  spentMs(): number;
  exhausted(): boolean;
  /** Stops the timer; the signal stays as it is. */
  dispose(): void;
}

/** Starts the budget now; `clock` is epoch ms, injected by tests. */
export function startBudget(limit: Duration, clock: () => number): RunBudget {
  const startedAt = clock();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new BudgetSpent(limit.text)), limit.ms);
  return {
    limit,
    signal: controller.signal,
    remainingMs: () => Math.max(0, startedAt + limit.ms - clock()),
    spentMs: () => clock() - startedAt,
    exhausted: () => controller.signal.aborted,
    dispose: () => clearTimeout(timer),
  };
}

/**
 * Each property's time limit when none was given: what remains of the run's budget when the properties
 * start (they run at once, so each may use all of it; those that take turns share it). A restart needs none of
 * it: it happens at the start, before the properties.
 * Never zero: a property with no time left still starts, stops at once and reports that it got no case.
 */
export function derivedPropertyTimeLimitMs(remainingMs: number): number {
  return Math.max(1, Math.floor(remainingMs));
}

/** Property settings whose time limit nobody gave (`timeLimitGiven: false`) get the one the budget leaves; others stay as they are. */
export function withBudgetedTimeLimit<T extends { timeLimitMs: number; timeLimitGiven?: boolean; timeLimitShared?: boolean; timeLimitOrigin?: PropertyTimeLimitOrigin }>(
  settings: T,
  remainingMs: number,
): T {
  if (settings.timeLimitGiven !== false) return settings;
  return { ...settings, timeLimitMs: derivedPropertyTimeLimitMs(remainingMs), timeLimitShared: true, timeLimitOrigin: { source: 'budget' } };
}
