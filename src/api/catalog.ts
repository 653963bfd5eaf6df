/** The catalog of rules, what a rule's judge returns inside the kit, and the verdicts a judgement reaches. */
export { RULES, RULE_IDS } from '../rules/index.js';
export type { RuleSelection } from '../rules/index.js';
// What a rule's judge returns inside the kit (evidence as exchange numbers); a report's rule is a `ReportRule`.
export type { Rule, RuleResult, RuleStatus, Level, Evidence } from '../rules/types.js';
export type { Verdict, ExitCode } from '../core/verdict.js';
