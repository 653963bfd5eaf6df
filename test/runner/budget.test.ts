import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BudgetSpent, isBudgetSpent } from '../../src/core/budget-spent.js';
import { startBudget } from '../../src/runner/budget.js';
import { budgetNote, budgetOutcome } from '../../src/runner/budget-outcome.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import type { RuleResult } from '../../src/rules/types.js';

describe('the run budget', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts its signal with a BudgetSpent reason when the limit passes, and counts down on its clock', () => {
    let clock = 1_000;
    const budget = startBudget({ ms: 10_000, text: 'PT10S' }, () => clock);
    clock += 4_000;
    vi.advanceTimersByTime(4_000);
    expect(budget.remainingMs()).toBe(6_000);
    expect(budget.exhausted()).toBe(false);
    expect(isBudgetSpent(budget.signal)).toBe(false);
    clock += 6_000;
    vi.advanceTimersByTime(6_000);
    expect(budget.exhausted()).toBe(true);
    expect(budget.remainingMs()).toBe(0);
    expect(budget.spentMs()).toBe(10_000);
    expect(budget.signal.reason).toBeInstanceOf(BudgetSpent);
    expect(isBudgetSpent(budget.signal)).toBe(true);
    expect((budget.signal.reason as Error).message).toBe("the run's time limit PT10S (--time-limit) was spent");
    budget.dispose();
  });

  it('leaves no timer behind once disposed', () => {
    const budget = startBudget({ ms: 60_000, text: 'PT1M' }, () => 0);
    budget.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(120_000);
    expect(budget.exhausted()).toBe(false);
  });

  it('is not taken for a user interrupt', () => {
    const user = new AbortController();
    user.abort();
    expect(isBudgetSpent(user.signal)).toBe(false);
  });
});

function rule(id: string, status: RuleResult['status']): RuleResult {
  return { id, status, level: 'MUST', title: id, sentence: id, message: '', evidence: [] } as unknown as RuleResult;
}

function property(name: string, numRuns: number, interrupted: boolean): PropertyResult {
  return { name, status: 'passed', numRuns, seed: 1, interrupted, ruleIds: [], exchanges: [], notes: [], reruns: [], message: '' };
}

describe('the budget in the outcome', () => {
  const rules = [rule('answer.status', 'pass'), rule('operation.within-max-duration', 'not-exercised'), rule('apply.idempotent', 'not-exercised')];
  const properties = [property('property/generated-plans', 3, true), property('property/malformed-json', 40, false)];
  const casesAsked = { 'property/generated-plans': 20, 'property/malformed-json': 40 };

  it('names, when spent, the rules with no case and the properties cut short with how many cases they got', () => {
    const budget = budgetOutcome({ limit: { ms: 120_000, text: 'PT2M' }, spentMs: 120_004.6, exhausted: true, casesAsked }, rules, properties);
    expect(budget).toEqual({
      limit: { ms: 120_000, text: 'PT2M' },
      spentMs: 120_005,
      exhausted: true,
      properties: [
        { name: 'property/generated-plans', casesJudged: 3, casesAsked: 20, interrupted: true },
        { name: 'property/malformed-json', casesJudged: 40, casesAsked: 40, interrupted: false },
      ],
      notExercised: ['operation.within-max-duration', 'apply.idempotent'],
    });
    const note = budgetNote(budget)!;
    expect(note).toContain("the run's time limit PT2M (--time-limit) was spent after 2m00s");
    expect(note).toContain('2 rules got no case: operation.within-max-duration, apply.idempotent');
    expect(note).toContain('properties cut short: property/generated-plans 3 of 20 cases');
    expect(note).not.toContain('malformed-json');
  });

  it('measures generated cases against those asked for, leaving out candidates tried while shrinking', () => {
    const shrunk = { ...property('property/generated-plans', 99, true), status: 'failed' as const, shrinkRuns: 79 };
    const budget = budgetOutcome({ limit: { ms: 120_000, text: 'PT2M' }, spentMs: 120_000, exhausted: true, casesAsked }, rules, [shrunk]);
    expect(budget.properties).toEqual([{ name: 'property/generated-plans', casesJudged: 20, casesAsked: 20, interrupted: true }]);
    expect(budgetNote(budget)).toContain('properties cut short: property/generated-plans 20 of 20 cases, shrinking cut short');
  });

  it('says nothing in the conclusions, and blames no rule on it, while it was not spent', () => {
    const budget = budgetOutcome({ limit: { ms: 120_000, text: 'PT2M' }, spentMs: 5_000, exhausted: false, casesAsked }, rules, properties);
    expect(budget.notExercised).toEqual([]);
    expect(budgetNote(budget)).toBeUndefined();
  });
});
