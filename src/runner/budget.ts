import { BudgetSpent } from '../core/budget-spent.js';
import type { Duration } from '../core/duration.js';

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
