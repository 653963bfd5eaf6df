/**
 * The reason a run's driving was stopped when its --time-limit passed. It is kept apart from a user's
 * interrupt: a spent budget is an ordinary end, judged on what happened, while an interrupted run cannot pass.
 */
export class BudgetSpent extends Error {
  constructor(readonly limitText: string) {
    super(`the run's time limit ${limitText} (--time-limit) was spent`);
    this.name = 'BudgetSpent';
  }
}

/** Whether a signal was aborted because the run's budget was spent (not by the user). */
export function isBudgetSpent(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason instanceof BudgetSpent;
}
