import type { SubCaseRecord } from '../batch-verdicts.js';
import { DEFAULT_SHRINK_BUDGET, shrinkBudgetMs, type ShrinkBudget } from '../shrink-budget.js';
import type { PropertyRun } from './property-run.js';

/**
 * Takes the verdict of a batch, the union of its sub-cases': it holds when every sub-case held. The first failure
 * opens shrinking's window: a few of the longest case's lengths, never past the time limit, or none at all when
 * the failure is one the scenarios already showed.
 */
export function heldBy<T>(run: PropertyRun<T>, records: ReadonlyArray<SubCaseRecord<T>>): boolean {
  const failing = records.find((record) => record.verdict.broken.length > 0);
  if (failing === undefined) return true;
  const { state, settings } = run;
  if (state.lastFailure === undefined) {
    const remainingMs = settings.timeLimit.ms - (performance.now() - run.startedAt);
    state.shrinkEndsAt = performance.now() + shrinkBudgetMs(shrinkBudgetOf(run), state.longestCaseMs, remainingMs);
    if (shownAlready(failing.verdict.broken, settings.deadlineRulesFailed?.())) {
      state.notWorthShrinking = failing.verdict.broken;
      state.shrinkEndsAt = Number.NEGATIVE_INFINITY;
    }
  }
  state.lastFailure = failing;
  state.firstFailure ??= failing;
  return false;
}

/** Whether shrinking's window has closed; the first time it is found closed, shrinking was stopped by its budget. */
export function shrinkOver<T>(run: PropertyRun<T>): boolean {
  if (performance.now() < run.state.shrinkEndsAt) return false;
  run.state.shrinkStopped = true;
  return true;
}

export function shrinkBudgetOf<T>(run: PropertyRun<T>): ShrinkBudget {
  return run.settings.shrinkBudget ?? DEFAULT_SHRINK_BUDGET;
}

/** The shrinking budget in words, for the message of a counterexample it cut. */
export function shrinkBudgetInWords(budget: ShrinkBudget): string {
  return `${budget.lengths} times its longest case, at least ${Math.round(budget.floorMs / 1000)} s, within the time limit`;
}

/** Every rule the case broke is one the run already showed broken by outlasting the deadline. */
function shownAlready(broken: readonly string[], deadlineRulesFailed: ReadonlySet<string> | undefined): boolean {
  return deadlineRulesFailed !== undefined && broken.length > 0 && broken.every((id) => deadlineRulesFailed.has(id));
}
