import { describe, expect, it } from 'vitest';
import { failedResult, passedResult, resultBase } from '../../suites/properties/check/property-outcome.js';
import { broken, HELD, integerSpec, propertyRuns } from './property-run-support.js';
import { givenTimeLimit } from '../support/time-limit.js';

const runOf = propertyRuns();
const spec = integerSpec(async () => HELD);
const REPRODUCED = { reproduced: true, exchanges: [4], notes: ['case 4'] };
const MISSED = { reproduced: false, exchanges: [], notes: [] };

describe('the result of a property run', () => {
  it('counts the cases judged and the candidates tried, with the time limit and where it came from', () => {
    const run = runOf(spec, { settings: { seed: 3, maxExamples: 20, timeLimit: givenTimeLimit(90_000) } });
    Object.assign(run.state, { judged: 12, shrinkJudged: 5 });
    expect(resultBase(run, false)).toEqual({
      name: 'property/unit', numRuns: 17, shrinkRuns: 5, casesAsked: 20, seed: 3, interrupted: false,
      timeLimit: { text: 'PT1M30S', ms: 90_000, origin: { source: 'given' } },
    });
    run.state.cutShort = true;
    expect(resultBase(run, false).interrupted).toBe(true);
  });

  it('says a passed property held, how many of the cases asked for, and which limit stopped it', () => {
    const run = runOf(spec, { settings: { maxExamples: 20, timeLimit: givenTimeLimit(90_000) } });
    run.state.judged = 20;
    expect(passedResult(run, resultBase(run, false))).toMatchObject({ status: 'passed', ruleIds: [], reruns: [], message: 'held over 20 cases' });
    run.state.judged = 7;
    expect(passedResult(run, resultBase(run, true)).message).toBe('held over 7 of 20 cases before its time limit PT1M30S (given by --property-time-limit) stopped it');
    run.state.judged = 0;
    expect(passedResult(run, resultBase(run, true)).message).toBe('got no case: stopped before its first case ended by its time limit PT1M30S (given by --property-time-limit)');
    const left = runOf(spec, { settings: { timeLimit: { text: 'PT0.5S', ms: 500, origin: { source: 'budget' } } } });
    expect(passedResult(left, resultBase(left, true)).message).toBe("got no case: stopped before its first case ended by its time limit PT0.5S (what the run's --time-limit left)");
  });

  it('reports a counterexample a re-run showed again as failed, with its replay line', () => {
    const run = runOf(spec, { settings: { seed: 3 } });
    const failure = { value: 4, caseSuite: 'property/unit#2', verdict: broken(4) };
    const result = failedResult(run, resultBase(run, false), { failure, reruns: [REPRODUCED], path: '1:0', fellBack: false });
    expect(result).toMatchObject({ status: 'failed', path: '1:0', ruleIds: ['answer.status'], counterexample: 'n = 4', exchanges: [4], notes: ['case 4'] });
    expect(result.message).toBe('broke answer.status; replay with --property property/unit --seed 3 --path 1:0');
  });

  it('reports one no re-run showed again as flaky, and says why a counterexample is not minimal', () => {
    const run = runOf(spec, { settings: { seed: 3, shrinkBudget: { lengths: 2, floorMs: 1000 } } });
    const failure = { value: 4, caseSuite: 'property/unit#2', verdict: broken(4) };
    Object.assign(run.state, { shrinkStopped: true, shrinkJudged: 1 });
    const flaky = failedResult(run, resultBase(run, false), { failure, reruns: [MISSED, MISSED, MISSED], path: undefined, fellBack: false });
    expect(flaky.status).toBe('flaky');
    expect(flaky.message).toBe(
      'broke answer.status once, but none of 3 re-runs did; not minimal: shrinking stopped after 1 candidate (its budget: 2 times its longest case, at least 1 s, within the time limit); replay with --property property/unit --seed 3',
    );
    const fellBack = failedResult(run, resultBase(run, false), { failure, reruns: [REPRODUCED], path: '1:2', fellBack: true });
    expect(fellBack.message).toContain('; not minimal: the smaller cases shrinking found failed once and none of 3 re-runs showed them again');
    run.state.notWorthShrinking = ['operation.deadline'];
    expect(failedResult(run, resultBase(run, false), { failure, reruns: [], path: '1:0', fellBack: false }).message).toContain(
      "; not minimal: not shrunk, nor run again: the run's scenarios already broke operation.deadline",
    );
  });

  it('says on which run a replay beside its batch failed', () => {
    const run = runOf(spec, { settings: { seed: 3 } });
    run.state.replayRuns = 3;
    const failure = { value: 4, caseSuite: 'property/unit#2', verdict: broken(4) };
    expect(failedResult(run, resultBase(run, false), { failure, reruns: [REPRODUCED], path: '1:0', fellBack: false }).message).toContain('(on run 3 of the replayed case beside its batch)');
  });
});
