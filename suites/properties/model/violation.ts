import type { RuleResult } from '../../../src/rules/types.js';

/**
 * Thrown after a command when the rules, judging the case's exchanges so far, find one broken: fast-check
 * stops the case there. It holds what the judges said at that step, so that the notes can name the step.
 */
export class RuleViolation extends Error {
  constructor(
    /** The step (1-based, as the counterexample numbers its lines) after which the rules were judged. */
    readonly step: number,
    /** The step's line, with the real ids and answers. */
    readonly line: string,
    readonly broken: readonly RuleResult[],
  ) {
    super(`${broken.map((rule) => rule.id).join(', ')} broken at step ${step}: ${line}`);
    this.name = 'RuleViolation';
  }
}

/** Thrown by the case driver once the case's time is over: the case ends without sending more. */
export class CaseStopped extends Error {
  constructor() {
    super('the case was stopped before it ended');
    this.name = 'CaseStopped';
  }
}
