import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkProperty } from '../../suites/properties/check-property.js';
import type { CaseVerdict, PropertyContext, PropertySettings, PropertySpec } from '../../suites/properties/property.js';

// checkProperty itself only reads the settings and the run's signal; cases do the HTTP.
function contextWith(settings: Partial<PropertySettings>, signal = new AbortController().signal): PropertyContext {
  return { settings: { maxExamples: 50, timeLimitMs: 10_000, allowApplyGenerated: false, ...settings }, signal } as unknown as PropertyContext;
}

const HELD: CaseVerdict = { broken: [], exchanges: [], notes: [] };

function brokenAt(seq: number, note: string): CaseVerdict {
  return { broken: ['answer.status'], exchanges: [seq], notes: [note] };
}

function spec(runCase: PropertySpec<number>['runCase'], arbitrary: fc.Arbitrary<number> = fc.integer({ min: 0, max: 1000 })): PropertySpec<number> {
  return { name: 'property/test', arbitrary, runCase, describe: (n) => `n = ${n}` };
}

describe('checkProperty', () => {
  it('passes when every case holds, tagging each case with its own suite name and always recording a seed', async () => {
    const suites: string[] = [];
    const result = await checkProperty(contextWith({ maxExamples: 25 }), spec(async (_n, caseSuite) => (suites.push(caseSuite), HELD)));
    expect(result).toMatchObject({ name: 'property/test', status: 'passed', numRuns: 25, interrupted: false, ruleIds: [], reruns: [] });
    expect(Number.isInteger(result.seed)).toBe(true);
    expect(new Set(suites).size).toBe(25);
    expect(suites[0]).toBe('property/test#1');
  });

  it('shrinks a failure, re-runs the counterexample and says how to replay it', async () => {
    const result = await checkProperty(contextWith({ seed: 42 }), spec(async (n) => (n >= 100 ? brokenAt(n, `n is ${n}`) : HELD)));
    expect(result).toMatchObject({ status: 'failed', seed: 42, ruleIds: ['answer.status'], counterexample: 'n = 100', exchanges: [100], notes: ['n is 100'] });
    expect(result.reruns).toEqual([{ reproduced: true, exchanges: [100], notes: ['n is 100'] }]);
    expect(result.message).toContain(`--property property/test --seed 42 --path ${result.path}`);
  });

  it('replays only the case a seed and path name', async () => {
    const failing = spec(async (n) => (n >= 100 ? brokenAt(n, 'big') : HELD));
    const found = await checkProperty(contextWith({ seed: 42 }), failing);
    const seen: number[] = [];
    const replayed = await checkProperty(contextWith({ seed: 42, path: found.path }), spec(async (n) => (seen.push(n), n >= 100 ? brokenAt(n, 'big') : HELD)));
    expect(seen).toEqual([100, 100]); // the case, then its one re-run
    expect(replayed).toMatchObject({ status: 'failed', numRuns: 1, counterexample: 'n = 100', path: found.path });
  });

  it('reports a failure that no re-run repeats as flaky, with the evidence of both', async () => {
    let calls = 0;
    let failedOnce = false;
    const result = await checkProperty(
      contextWith({ seed: 1 }),
      spec(async (n) => {
        calls++;
        if (!failedOnce && n > 10) {
          failedOnce = true;
          return brokenAt(7, 'a 503 from a proxy once');
        }
        return HELD;
      }),
    );
    expect(result.status).toBe('flaky');
    expect(result.notes).toEqual(['a 503 from a proxy once']);
    expect(result.reruns).toHaveLength(3);
    expect(result.reruns.every((rerun) => !rerun.reproduced)).toBe(true);
    expect(result.message).toMatch(/none of 3 re-runs/);
    expect(calls).toBeGreaterThan(3);
  });

  it('ends at the time limit: a slow property that found nothing passes, interrupted, and stops its running case', async () => {
    let stoppedInTime = false;
    const result = await checkProperty(
      contextWith({ maxExamples: 1000, timeLimitMs: 300 }),
      // A case that runs until it is told to stop: the limit strikes while it is in flight, however loaded the machine.
      spec(async (_n, _suite, signal) => {
        await new Promise<void>((resolve) => {
          const fallback = setTimeout(resolve, 20_000);
          signal.addEventListener('abort', () => {
            clearTimeout(fallback);
            resolve();
          });
        });
        stoppedInTime ||= signal.aborted;
        return HELD;
      }),
    );
    expect(result).toMatchObject({ status: 'passed', interrupted: true });
    expect(result.numRuns).toBeLessThan(10);
    expect(result.message).toMatch(/time limit/);
    // The case in flight when the limit struck was told to stop, and was awaited before the result.
    expect(stoppedInTime).toBe(true);
  });

  it('ends shrinking at the time limit and still reports the counterexample found so far', async () => {
    const slowShrinking: PropertySpec<number[]> = {
      name: 'property/test',
      arbitrary: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 30, maxLength: 60 }),
      runCase: async (values) => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        return values.reduce((a, b) => a + b, 0) > 100 ? brokenAt(1, `sum ${values.length}`) : HELD;
      },
      describe: (values) => `${values.length} values`,
    };
    const result = await checkProperty(contextWith({ seed: 3, timeLimitMs: 500 }), slowShrinking);
    expect(result.status).toBe('failed');
    expect(result.interrupted).toBe(true);
    expect(result.counterexample).toMatch(/^\d+ values$/);
    expect(result.path).toMatch(/^\d+(:\d+)*$/);
  });

  it('turns a case that throws into an error of the kit instead of a counterexample', async () => {
    await expect(checkProperty(contextWith({}), spec(async () => Promise.reject(new Error('boom'))))).rejects.toThrow(/property\/test#1: the kit failed while running a case: boom/);
  });
});
