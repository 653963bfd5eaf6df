import { kitErrorVerdict } from '../errors.js';
import type { Verdict } from '../core/verdict.js';
import type { RuleResult } from '../rules/types.js';
import type { Transcript } from '../transcript/transcript.js';
import type { Summary } from './outcome.js';

export function summarize(results: readonly RuleResult[]): Summary {
  const count = (status: RuleResult['status']): number => results.filter((r) => r.status === status).length;
  const errors = count('error');
  const waived = count('waived');
  const notApplicable = count('not-applicable');
  return {
    passed: count('pass'),
    failed: count('fail'),
    warned: count('warn'),
    advice: count('advice'),
    skipped: count('skip'),
    notExercised: count('not-exercised'),
    ...(notApplicable > 0 && { notApplicable }),
    ...(errors > 0 && { errors }),
    ...(waived > 0 && { waived }),
  };
}

/**
 * Unknown is never success: a rule the kit failed to judge makes the run an `error` whatever else it found,
 * a target that never answered is `unreachable`, and a run stopped before its end is an `error` unless a
 * MUST rule already failed, whatever the rules that did run say. A run cut short by its time limit, or a
 * certification with a rule not exercised, is `incomplete` unless a MUST rule failed. A rule not applicable
 * (a way of answering the provisioner never chose, as the contract allows) leaves no gap: it never makes a
 * certification incomplete, and never passes either.
 */
export function decideVerdict(results: readonly RuleResult[], transcript: Transcript, interrupted = false, certify = false, budgetSpent = false): Verdict {
  if (results.some((r) => r.status === 'error')) return kitErrorVerdict('KIT_INTERNAL');
  const answered = transcript.exchanges.some((exchange) => exchange.response !== undefined);
  if (!answered) return kitErrorVerdict('KIT_TARGET_UNREACHABLE');
  if (results.some((r) => r.status === 'fail')) return 'fail';
  if (interrupted) return 'error';
  // A run whose --time-limit cut it short has judged only part of what it meant to: no gate may take that for a pass.
  if (budgetSpent) return 'incomplete';
  // A certification says something about every rule, or it says nothing.
  return certify && results.some((r) => r.status === 'not-exercised') ? 'incomplete' : 'pass';
}
