import type { JudgeContext } from '../core/judge-context.js';
import { DEADLINE_ONLY_RULE_IDS, judgeRules } from '../rules/index.js';
import type { Transcript } from '../transcript/transcript.js';

/**
 * The rules that only a wait past the operation deadline can break and that the transcript so far already
 * shows broken. A property failure that broke nothing else is not shrunk: each candidate would cost the whole
 * deadline to show again what the run has shown.
 */
export function deadlineRulesFailed(transcript: Transcript, context: JudgeContext): ReadonlySet<string> {
  if (DEADLINE_ONLY_RULE_IDS.size === 0) return new Set();
  const results = judgeRules(transcript, context, { only: [...DEADLINE_ONLY_RULE_IDS] });
  return new Set(results.filter((result) => DEADLINE_ONLY_RULE_IDS.has(result.id) && (result.status === 'fail' || result.status === 'warn')).map((result) => result.id));
}
