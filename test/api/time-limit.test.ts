import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/index.js';

// The reference with `never-finishes` answers 202 and keeps every operation in progress for ever.
const NEVER_ENDS = { reference: true, referenceMode: 'async', referenceFault: 'never-finishes', profile: 'quick', burst: 4 } as const;

describe('a run with --time-limit against a provisioner that never ends its work', () => {
  it('ends, says the budget was spent, and names the rules and properties that lack cases', async () => {
    const report = await runConformance({ ...NEVER_ENDS, maxExamples: 2, timeLimit: 'PT3S' });
    const budget = report.budget!;
    expect(budget.limit).toEqual({ ms: 3000, text: 'PT3S' });
    expect(budget.exhausted).toBe(true);
    // Cut off by the budget, an operation's end is unknown: neither a pass nor the provisioner's failure.
    const withinMax = report.rules.find((rule) => rule.id === 'operation.within-max-duration')!;
    expect(withinMax.status).toBe('not-exercised');
    expect(budget.notExercised).toContain('operation.within-max-duration');
    expect(budget.notExercised).toEqual(report.rules.filter((rule) => rule.status === 'not-exercised').map((rule) => rule.id));
    expect(report.rules.filter((rule) => budget.notExercised.includes(rule.id) && rule.status === 'pass')).toEqual([]);
    // The scenarios spent the budget, so no property had time for its cases.
    expect(budget.properties.map((property) => property.name).sort()).toEqual(report.properties.map((property) => property.name).sort());
    for (const property of budget.properties) {
      expect(property.casesAsked).toBe(2);
      expect(property.casesJudged).toBeLessThan(property.casesAsked);
    }
    const note = report.conclusions.find((conclusion) => conclusion.startsWith("the run's time limit PT3S (--time-limit) was spent"));
    expect(note).toContain('operation.within-max-duration');
    expect(note).toContain('property/generated-plans 0 of 2 cases');
    // A spent budget is an ordinary end, not an interrupt.
    expect(report.conclusions.some((conclusion) => conclusion.includes('the run was stopped before it ended'))).toBe(false);
    // Nor is it a pass: the gate hears that the run judged only part of what it meant to.
    expect(report.verdict).toBe('incomplete');
    expect(report.exitCode).toBe(1);
    expect(report.conclusions.some((conclusion) => conclusion.startsWith('the run is incomplete: its time limit PT3S was spent before it ended (raise --time-limit)'))).toBe(true);
    expect(report.operations.some((op) => op.reason === 'aborted' && op.conclusion.startsWith("the run's time limit PT3S (--time-limit) was spent before the work ended"))).toBe(true);
  }, 60_000);

  it('restarts the provisioner at the start, within the budget, and says why durability could not be judged', async () => {
    const report = await runConformance({ ...NEVER_ENDS, properties: false, timeLimit: 'PT2S', restartTimeout: 'PT5S' });
    // The restart comes first, while the opening work is in progress; work that never ends says nothing about it.
    const durability = report.rules.find((rule) => rule.id === 'durability.survives-restart')!;
    expect(durability.status).toBe('not-exercised');
    expect(durability.message).toBe('no operation of this run reached a final answer, restart or not, so what a restart does to them cannot be told apart');
    expect(report.verdict).toBe('incomplete');
  }, 60_000);
});
