import { describe, expect, it } from 'vitest';
import type { SubCaseRecord } from '../../suites/properties/batch-verdicts.js';
import { heldBy, shrinkBudgetInWords, shrinkOver } from '../../suites/properties/check/shrink-window.js';
import { broken, HELD, integerSpec, propertyRuns } from './property-run-support.js';
import { givenTimeLimit } from '../support/time-limit.js';

const runOf = propertyRuns();
const spec = integerSpec(async () => HELD);

function record(value: number, verdict = HELD): SubCaseRecord<number> {
  return { value, caseSuite: `property/unit#${value}`, verdict };
}

describe('shrinking’s window', () => {
  it('holds a batch whose every sub-case held, and leaves the window shut', () => {
    const run = runOf(spec);
    expect(heldBy(run, [record(1), record(2)])).toBe(true);
    expect(run.state.lastFailure).toBeUndefined();
    expect(run.state.shrinkEndsAt).toBe(Number.POSITIVE_INFINITY);
  });

  it('opens at the first failure for the budget’s lengths of the longest case, never past the time limit', () => {
    const run = runOf(spec, { settings: { timeLimit: givenTimeLimit(600_000), shrinkBudget: { lengths: 3, floorMs: 0 } } });
    run.state.longestCaseMs = 10_000;
    const before = performance.now();
    expect(heldBy(run, [record(1), record(2, broken(2))])).toBe(false);
    const after = performance.now();
    expect(run.state.shrinkEndsAt).toBeGreaterThanOrEqual(before + 30_000);
    expect(run.state.shrinkEndsAt).toBeLessThanOrEqual(after + 30_000);

    const short = runOf(spec, { settings: { timeLimit: givenTimeLimit(5_000), shrinkBudget: { lengths: 3, floorMs: 0 } } });
    short.state.longestCaseMs = 10_000;
    heldBy(short, [record(3, broken(3))]);
    expect(short.state.shrinkEndsAt).toBeLessThanOrEqual(short.startedAt + 5_000 + 1);
  });

  it('keeps the first failure, and the last as the one fast-check reports; later failures leave the window as it is', () => {
    const run = runOf(spec);
    heldBy(run, [record(5, broken(5))]);
    const endsAt = run.state.shrinkEndsAt;
    heldBy(run, [record(3, broken(3))]);
    expect(run.state.firstFailure?.value).toBe(5);
    expect(run.state.lastFailure?.value).toBe(3);
    expect(run.state.shrinkEndsAt).toBe(endsAt);
  });

  it('never opens for a failure that broke only rules the scenarios already showed broken by the deadline', () => {
    const shown = new Set(['operation.deadline']);
    const run = runOf(spec, { settings: { deadlineRulesFailed: () => shown } });
    heldBy(run, [record(5, broken(5, 'operation.deadline'))]);
    expect(run.state.notWorthShrinking).toEqual(['operation.deadline']);
    expect(shrinkOver(run)).toBe(true);

    const more = runOf(spec, { settings: { deadlineRulesFailed: () => shown } });
    heldBy(more, [record(5, broken(5, 'operation.deadline', 'answer.status'))]);
    expect(more.state.notWorthShrinking).toBeUndefined();
    expect(shrinkOver(more)).toBe(false);
  });

  it('says shrinking was stopped by its budget only once the window is found closed', () => {
    const run = runOf(spec);
    expect(shrinkOver(run)).toBe(false);
    expect(run.state.shrinkStopped).toBe(false);
    run.state.shrinkEndsAt = performance.now() - 1;
    expect(shrinkOver(run)).toBe(true);
    expect(run.state.shrinkStopped).toBe(true);
  });

  it('names its budget in words for a counterexample it cut', () => {
    expect(shrinkBudgetInWords({ lengths: 3, floorMs: 120_000 })).toBe('3 times its longest case, at least 120 s, within the time limit');
  });
});
