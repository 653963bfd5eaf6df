import { describe, expect, it } from 'vitest';
import type { SubCaseRecord } from '../../suites/properties/batch-verdicts.js';
import { judgeBatch } from '../../suites/properties/check/judge-batch.js';
import type { EarlyCandidates, EarlyVerdict } from '../../suites/properties/check/property-run.js';
import { broken, HELD, integerSpec, propertyRuns } from './property-run-support.js';

const runOf = propertyRuns();
const NONE_EARLY: EarlyCandidates<number> = { verdictOf: () => undefined };

/** Candidates started early, with the verdicts given here. */
function earlyWith(verdict: EarlyVerdict<number> | Error): EarlyCandidates<number> {
  return { verdictOf: () => (verdict instanceof Error ? Promise.reject(verdict) : Promise.resolve(verdict)) };
}

function record(value: number, verdict = HELD): SubCaseRecord<number> {
  return { value, caseSuite: `property/unit#${value}`, verdict };
}

describe('judging a batch fast-check asks about', () => {
  it('runs a generated batch whole, counting each sub-case judged, and fails it when one sub-case failed', async () => {
    const sent: string[] = [];
    const run = runOf(integerSpec(async (n, caseSuite) => (sent.push(caseSuite), n === 2 ? broken(n) : HELD)), { settings: { maxExamples: 10 } });
    expect(await judgeBatch(run, NONE_EARLY, [1, 2, 3])).toBe(false);
    expect(sent).toEqual(['property/unit#1.1', 'property/unit#1.2', 'property/unit#1.3']);
    expect(run.state).toMatchObject({ judged: 3, shrinkJudged: 0, lastFailure: { value: 2 } });
  });

  it('runs only the sub-cases left of those asked for, and never shrinks to one it left out', async () => {
    const sent: number[] = [];
    const run = runOf(integerSpec(async (n) => (sent.push(n), HELD)), { settings: { maxExamples: 2 } });
    const batch = [1, 2, 3];
    expect(await judgeBatch(run, NONE_EARLY, batch)).toBe(true);
    expect(sent).toEqual([1, 2]);
    expect(run.verdicts.known(batch)).toBeUndefined();
  });

  it('counts a candidate asked for once a failure was seen as a shrink candidate', async () => {
    const run = runOf(integerSpec(async () => HELD));
    run.state.lastFailure = record(9, broken(9));
    expect(await judgeBatch(run, NONE_EARLY, [4])).toBe(true);
    expect(run.state).toMatchObject({ judged: 0, shrinkJudged: 1 });
  });

  it('takes the verdict of a candidate run early, and of the same case met before without counting it again', async () => {
    const run = runOf(integerSpec(async () => HELD));
    run.state.lastFailure = record(9, broken(9));
    expect(await judgeBatch(run, earlyWith({ record: record(4, broken(4)), ran: true }), [4])).toBe(false);
    expect(run.state.shrinkJudged).toBe(1);
    expect(await judgeBatch(run, earlyWith({ record: record(4, broken(4)), ran: false }), [5])).toBe(false);
    expect(run.state.shrinkJudged).toBe(1);
    expect(run.state.lastFailure).toMatchObject({ value: 5, verdict: broken(4) });
  });

  it('holds a candidate that never got its place, interrupted unless shrinking’s budget ended', async () => {
    const run = runOf(integerSpec(async () => HELD));
    run.state.lastFailure = record(9, broken(9));
    expect(await judgeBatch(run, earlyWith(undefined), [4])).toBe(true);
    expect(run.state.cutShort).toBe(true);
    const budgeted = runOf(integerSpec(async () => HELD));
    budgeted.state.lastFailure = record(9, broken(9));
    budgeted.state.shrinkStopped = true;
    budgeted.state.shrinkEndsAt = Number.POSITIVE_INFINITY;
    expect(await judgeBatch(budgeted, earlyWith(undefined), [4])).toBe(true);
    expect(budgeted.state.cutShort).toBe(false);
  });

  it('holds every batch once shrinking’s window closed, or once the limit struck (then interrupted)', async () => {
    const sent: number[] = [];
    const run = runOf(integerSpec(async (n) => (sent.push(n), broken(n))));
    run.state.lastFailure = record(9, broken(9));
    run.state.shrinkEndsAt = Number.NEGATIVE_INFINITY;
    expect(await judgeBatch(run, NONE_EARLY, [4])).toBe(true);
    const stop = new AbortController();
    stop.abort();
    const stopped = runOf(integerSpec(async (n) => (sent.push(n), broken(n))), { signal: stop.signal });
    expect(await judgeBatch(stopped, NONE_EARLY, [4])).toBe(true);
    expect(stopped.state.cutShort).toBe(true);
    expect(sent).toEqual([]);
  });

  it('stops the property on a kit error rather than shrink it', async () => {
    const run = runOf(integerSpec(async () => HELD));
    run.state.lastFailure = record(9, broken(9));
    expect(await judgeBatch(run, earlyWith(new Error('kit bug')), [4])).toBe(true);
    expect(run.state).toMatchObject({ over: true, kitFault: new Error('kit bug') });
  });

  it('asks nothing more once a replay ran its case', async () => {
    const sent: number[] = [];
    const run = runOf(integerSpec(async (n) => (sent.push(n), HELD)), { settings: { seed: 1, path: '0' } });
    expect(await judgeBatch(run, NONE_EARLY, [4])).toBe(true);
    expect(await judgeBatch(run, NONE_EARLY, [5])).toBe(true);
    expect(sent).toEqual([4]);
  });
});
