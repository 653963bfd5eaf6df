import type { CaseDriver } from './case-driver.js';
import { followToEnd } from './follow.js';
import type { ModelState } from './model.js';
import { hasEnded } from './model.js';
import type { Violation } from './violation.js';

/**
 * At the end of a case, follows every operation whose end the case has not seen, so that no work of one case
 * runs on into the next. Rules these reads break are returned with the case's other findings.
 */
export async function settleOperations(driver: CaseDriver, model: ModelState): Promise<Violation[]> {
  const open = model.operations.filter((op) => !hasEnded(op));
  const outcomes = await Promise.all(open.map((op) => followToEnd(driver, op)));
  open.forEach((op, i) => driver.log.push(`(end of case) follow operation #${op.ordinal} ${op.id}: ${outcomes[i]!.summary}`));
  return outcomes.flatMap((outcome) => outcome.violations);
}
