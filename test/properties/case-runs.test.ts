import { describe, expect, it } from 'vitest';
import { InternalError } from '../../src/errors.js';
import { nextSuite, runBeside, runSubCase, settleRunning } from '../../suites/properties/check/case-runs.js';
import { broken, HELD, integerSpec, propertyRuns } from './property-run-support.js';

const runOf = propertyRuns();

describe('the runs of a property’s cases', () => {
  it('names a lone case by its run and each sub-case of a batch by its place', () => {
    const run = runOf(integerSpec(async () => HELD));
    expect(nextSuite(run, 1)(0)).toBe('property/unit#1');
    const batch = nextSuite(run, 3);
    expect([0, 1, 2].map(batch)).toEqual(['property/unit#2.1', 'property/unit#2.2', 'property/unit#2.3']);
    expect(run.state.batches).toBe(2);
  });

  it('records a case’s verdict with what ran beside it, and keeps the longest case’s length', async () => {
    const run = runOf(integerSpec(async (n) => (n > 5 ? broken(n) : HELD)));
    const record = await runSubCase(run, 9, 'property/unit#1');
    expect(record).toEqual({ value: 9, caseSuite: 'property/unit#1', verdict: broken(9), beside: undefined });
    expect(run.state.longestCaseMs).toBeGreaterThanOrEqual(0);
    expect(run.running.size).toBe(0);
  });

  it('turns a case that throws into an error of the kit naming the case', async () => {
    const run = runOf(integerSpec(async () => {
      throw new Error('no socket');
    }));
    const failed = runSubCase(run, 1, 'property/unit#4');
    await expect(failed).rejects.toBeInstanceOf(InternalError);
    await expect(failed).rejects.toThrow('property/unit#4: the kit failed while running a case: no socket');
  });

  it('runs a case beside the places after its own as load, each with its own suite, and stops the load when the case ends', async () => {
    const loads: Array<{ value: number; caseSuite: string; signal: AbortSignal }> = [];
    const run = runOf(integerSpec(async () => HELD, { runAsLoad: async (value, caseSuite, signal) => void loads.push({ value, caseSuite, signal }) }));
    const suites: string[] = [];
    await runBeside(run, { origin: { batch: [10, 11, 12, 13], index: 2 }, count: 2 }, run.limit, async (caseSuite) => void suites.push(caseSuite));
    expect(suites).toEqual(['property/unit#1.1']);
    expect(loads.map(({ value, caseSuite }) => [value, caseSuite])).toEqual([[13, 'property/unit#1.2'], [10, 'property/unit#1.3']]);
    expect(loads.every(({ signal }) => signal.aborted)).toBe(true);
  });

  it('runs a case alone when the property cannot run one as load', async () => {
    const run = runOf(integerSpec(async () => HELD));
    const suites: string[] = [];
    await runBeside(run, { origin: { batch: [10, 11, 12], index: 0 }, count: 2 }, run.limit, async (caseSuite) => void suites.push(caseSuite));
    expect(suites).toEqual(['property/unit#1']);
  });

  it('stops the property when load throws, and throws the kit’s error once all in flight has ended', async () => {
    const run = runOf(integerSpec(async () => HELD, { runAsLoad: async () => Promise.reject(new Error('load broke')) }));
    await runBeside(run, { origin: { batch: [1, 2], index: 0 }, count: 1 }, run.limit, async () => undefined);
    await expect(settleRunning(run)).rejects.toThrow('property/unit#1.2: the kit failed while running a case as load: load broke');
    expect(run.state.over).toBe(true);
    expect(run.running.size).toBe(0);
  });
});
