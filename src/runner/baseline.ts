import type { Waiver } from '../config/baseline.js';
import type { RuleResult } from '../rules/types.js';

/** Statuses a waiver may turn into `waived`: a rule that did not hold. Kit errors and passes are never waived. */
const WAIVABLE = new Set<RuleResult['status']>(['fail', 'warn', 'advice']);

/** Whether a waiver still holds on the day of `at` (it holds through its expiry day, UTC). */
export function holdsOn(waiver: Waiver, at: number): boolean {
  return new Date(at).toISOString().slice(0, 10) <= waiver.expires;
}

/**
 * Turns the failures a baseline lists into `waived` (never `pass`), and says what the baseline no longer
 * needs or no longer covers: an expired waiver, or one whose rule holds now.
 */
export function applyBaseline(rules: readonly RuleResult[], waivers: readonly Waiver[], at: number): { rules: RuleResult[]; notes: string[] } {
  const notes: string[] = [];
  const byRule = new Map(waivers.map((waiver) => [waiver.rule, waiver]));
  const applied = rules.map((rule) => {
    const waiver = byRule.get(rule.id);
    if (!waiver) return rule;
    if (!holdsOn(waiver, at)) {
      notes.push(`the baseline's waiver of ${rule.id} expired on ${waiver.expires} ("${waiver.reason}"): the rule is judged as usual`);
      return rule;
    }
    if (WAIVABLE.has(rule.status)) {
      return { ...rule, status: 'waived' as const, waiver: { reason: waiver.reason, expires: waiver.expires, status: rule.status as 'fail' | 'warn' | 'advice' } };
    }
    if (rule.status === 'pass') notes.push(`${rule.id} holds now: its waiver in the baseline ("${waiver.reason}") can go`);
    return rule;
  });
  return { rules: applied, notes };
}
