import type { CaseDriver } from './case-driver.js';
import { followSummary } from './follow-summary.js';
import type { ModelState } from './model.js';
import { hasEnded } from './model.js';

/**
 * At the end of a case, follows every operation whose end the case has not seen, so that no work of one case
 * runs on into the next. What these reads break is found by the judgement of the whole case.
 */
export async function settleOperations(driver: CaseDriver, model: ModelState): Promise<void> {
  const open = model.operations.filter((op) => !hasEnded(op));
  const results = await Promise.all(open.map((op) => driver.follow(op)));
  open.forEach((op, i) => driver.log.push(`(end of case) follow operation #${op.ordinal} ${op.id}: ${followSummary(results[i]!)}`));
}
