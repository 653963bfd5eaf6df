import { formatMs } from '../core/duration.js';
import type { PropertyResult } from '../core/property-result.js';
import { plural } from '../core/text.js';
import type { RuleResult } from '../rules/types.js';
import type { BudgetOutcome } from './outcome.js';

/** What the run knew of its budget when it ended. */
export interface BudgetFacts {
  limit: { ms: number; text: string };
  spentMs: number;
  exhausted: boolean;
  /** Cases each property was asked for, by name. */
  casesAsked: Record<string, number>;
}

/** The budget as reports show it: what was spent, and what each property got of the cases it was asked for. */
export function budgetOutcome(facts: BudgetFacts, rules: readonly RuleResult[], properties: readonly PropertyResult[]): BudgetOutcome {
  return {
    limit: { ...facts.limit },
    spentMs: Math.round(facts.spentMs),
    exhausted: facts.exhausted,
    properties: properties.map((result) => ({
      name: result.name,
      // Generated cases against those asked for: candidates tried while shrinking are none of them.
      casesJudged: result.numRuns - (result.shrinkRuns ?? 0),
      casesAsked: facts.casesAsked[result.name] ?? result.numRuns,
      interrupted: result.interrupted,
    })),
    // Only a spent budget may be why a rule lacks its situation; otherwise its own message says why.
    notExercised: facts.exhausted ? rules.filter((rule) => rule.status === 'not-exercised').map((rule) => rule.id) : [],
  };
}

/** `3 of 20 cases`; with every case judged, a cut was the shrinking's: `20 of 20 cases, shrinking cut short`. */
export function casesJudgedText(property: BudgetOutcome['properties'][number]): string {
  const cases = `${property.casesJudged} of ${plural(property.casesAsked, 'case')}`;
  return property.interrupted && property.casesJudged >= property.casesAsked ? `${cases}, shrinking cut short` : cases;
}

/** One sentence for the run's conclusions when the budget ran out: what stopped, and what lacks cases. */
export function budgetNote(budget: BudgetOutcome): string | undefined {
  if (!budget.exhausted) return undefined;
  const parts = [
    `the run's time limit ${budget.limit.text} (--time-limit) was spent after ${formatMs(budget.spentMs)}: everything still driving was stopped, and the run was judged on what had happened`,
  ];
  if (budget.notExercised.length > 0) parts.push(`${plural(budget.notExercised.length, 'rule')} got no case: ${budget.notExercised.join(', ')}`);
  const short = budget.properties.filter((property) => property.interrupted || property.casesJudged < property.casesAsked);
  if (short.length > 0) {
    parts.push(`properties cut short: ${short.map((property) => `${property.name} ${casesJudgedText(property)}`).join(', ')}`);
  }
  return parts.join('; ');
}
