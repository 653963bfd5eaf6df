/**
 * What shrinking may spend once a property has failed. Each candidate costs about what a case cost — against a
 * slow provisioner an operation-length, against one whose operations never end the whole deadline — so the
 * budget is counted in those lengths: a few rounds of candidates, never more than the property's time left.
 * The failure is known already; shrinking only makes it smaller, and the counterexample found by then is
 * reported (as not minimal) when the budget ends.
 */
export interface ShrinkBudget {
  /** Operation-lengths shrinking may spend. */
  lengths: number;
  /** Shrinking is never cut before this, however short the cases: against a fast or one-second provisioner it reaches the minimum well within it. */
  floorMs: number;
}

export const DEFAULT_SHRINK_BUDGET: ShrinkBudget = { lengths: 3, floorMs: 120_000 };

/** Milliseconds shrinking may take, given the longest case judged so far and the property's time left. */
export function shrinkBudgetMs(budget: ShrinkBudget, longestCaseMs: number, remainingMs: number): number {
  return Math.max(0, Math.min(remainingMs, Math.max(budget.floorMs, budget.lengths * longestCaseMs)));
}

/**
 * Below this, a case is quick: the kit's own work on each candidate (sending, reading, judging) weighs as much as the
 * wait, and candidates run ahead that fast-check never asks for cost more than they save.
 */
export const SLOW_CASE_MS = 2_000;

/**
 * Candidates that may run at once: `width`, or `slowWidth` once a case took an operation-length of seconds, when
 * the rounds of shrinking, not the kit's work, are what it costs.
 */
export function shrinkWidthFor(width: number, slowWidth: number | undefined, longestCaseMs: number): number {
  return slowWidth !== undefined && longestCaseMs >= SLOW_CASE_MS ? Math.max(width, Math.floor(slowWidth)) : width;
}
