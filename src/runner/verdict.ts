import type { RuleResult } from '../rules/types.js';
import type { Transcript } from '../transcript/transcript.js';
import type { ExitCode, Summary, Verdict } from './outcome.js';

export function summarize(results: readonly RuleResult[]): Summary {
  const count = (status: RuleResult['status']): number => results.filter((r) => r.status === status).length;
  return {
    passed: count('pass'),
    failed: count('fail'),
    warned: count('warn'),
    advice: count('advice'),
    skipped: count('skip'),
    notExercised: count('not-exercised'),
  };
}

/**
 * Unknown is never success: a target that never answered is `unreachable`, and a run stopped before its
 * end is an `error` unless a MUST rule already failed, whatever the rules that did run say.
 */
export function decideVerdict(results: readonly RuleResult[], transcript: Transcript, interrupted = false, certify = false): Verdict {
  const answered = transcript.exchanges.some((exchange) => exchange.response !== undefined);
  if (!answered) return 'unreachable';
  if (results.some((r) => r.status === 'fail')) return 'fail';
  if (interrupted) return 'error';
  // A certification says something about every rule, or it says nothing.
  return certify && results.some((r) => r.status === 'not-exercised') ? 'incomplete' : 'pass';
}

export const EXIT_CODES: Readonly<Record<Verdict, ExitCode>> = { pass: 0, fail: 1, incomplete: 1, error: 2, unreachable: 3 };
