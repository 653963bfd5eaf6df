import { judgeCaseSlice } from '../judge-case.js';
import type { CaseDriver } from './case-driver.js';
import { MODEL_CASE_RULES } from './case-rules.js';
import { RuleViolation } from './violation.js';

/**
 * After a step, judges the case's exchanges so far by the run's own judges and stops the case (throws a
 * RuleViolation) when a rule is broken. It judges only once nothing of the case is in flight: every exchange
 * sent later is then sent after everything judged has ended, so no later exchange can excuse what was found,
 * and the judgement of the whole case, like the run-wide one, finds the same rule broken.
 */
export async function judgeStep(driver: CaseDriver, step: number, line: string): Promise<void> {
  await driver.idle();
  const { broken } = judgeCaseSlice(driver.context, driver.suite, [], MODEL_CASE_RULES);
  if (broken.length > 0) throw new RuleViolation(step, line, broken);
}
