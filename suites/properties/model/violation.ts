/** A rule the model saw broken, with the exchanges that show it (key one first) and a sentence naming real ids. */
export interface Violation {
  ruleId: string;
  note: string;
  exchanges: number[];
}

/** Thrown by a command when an invariant breaks, so that fast-check stops the case there; the message names the rule. */
export class RuleViolation extends Error {
  constructor(readonly violation: Violation) {
    super(`${violation.ruleId}: ${violation.note}`);
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

/** Throws the first violation, if any: a command stops at the first rule it sees broken. */
export function throwFirst(violations: readonly Violation[]): void {
  const [first] = violations;
  if (first) throw new RuleViolation(first);
}
