import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkProperty } from '../../suites/properties/check-property.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import type { CaseVerdict, PropertyContext, PropertySettings, PropertySpec } from '../../suites/properties/property.js';
import { givenTimeLimit } from '../support/time-limit.js';

// checkProperty itself only reads the settings and the run's signal; cases do the HTTP.
function contextWith(settings: Partial<PropertySettings>, signal = new AbortController().signal): PropertyContext {
  return { settings: { maxExamples: 50, timeLimit: givenTimeLimit(10_000), allowApplyGenerated: false, ...settings }, signal } as unknown as PropertyContext;
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
      contextWith({ maxExamples: 1000, timeLimit: givenTimeLimit(300) }),
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
    // Which limit stopped it, and where it came from: the one to raise.
    expect(result.message).toMatch(/its time limit PT0\.3S \(given by --property-time-limit\)/);
    expect(result.timeLimit).toEqual({ text: 'PT0.3S', ms: 300, origin: { source: 'given' } });
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
    const result = await checkProperty(contextWith({ seed: 3, timeLimit: givenTimeLimit(500) }), slowShrinking);
    expect(result.status).toBe('failed');
    expect(result.interrupted).toBe(true);
    expect(result.counterexample).toMatch(/^\d+ values$/);
    expect(result.path).toMatch(/^\d+(:\d+)*$/);
  });

  it('stops shrinking when its budget ends and reports the smallest failure so far as not minimal, with a replay that finds it', async () => {
    const failing = spec(async (n) => (n >= 100 ? brokenAt(n, `n is ${n}`) : HELD));
    const stopped = await checkProperty(contextWith({ seed: 42, shrinkBudget: { lengths: 0, floorMs: 0 } }), failing);
    expect(stopped.status).toBe('failed');
    expect(stopped.shrinkRuns ?? 0).toBe(0);
    expect(stopped.message).toMatch(/^broke answer\.status; not minimal: shrinking stopped after 0 candidates \(its budget: .*\); replay with --property property\/test --seed 42 --path /);
    const found = Number(/^n = (\d+)$/.exec(stopped.counterexample!)![1]);
    expect(found).toBeGreaterThan(100);
    const seen: number[] = [];
    const replayed = await checkProperty(contextWith({ seed: 42, path: stopped.path }), spec(async (n) => (seen.push(n), n >= 100 ? brokenAt(n, 'big') : HELD)));
    expect(replayed.counterexample).toBe(`n = ${found}`);
    // With the default budget the same failure shrinks to its minimum, and says nothing of a stop.
    const minimal = await checkProperty(contextWith({ seed: 42 }), failing);
    expect(minimal.counterexample).toBe('n = 100');
    expect(minimal.message).not.toMatch(/not minimal/);
  });

  it('neither shrinks nor re-runs a failure that broke only deadline rules the scenarios already showed broken', async () => {
    const deadline = 'operation.within-max-duration';
    let calls = 0;
    const outlasting = spec(async (n) => (calls++, n >= 100 ? { broken: [deadline], exchanges: [n], notes: [`n is ${n}`] } : HELD));
    const reported = await checkProperty(contextWith({ seed: 42, deadlineRulesFailed: () => new Set([deadline]) }), outlasting);
    expect(reported).toMatchObject({ status: 'failed', ruleIds: [deadline], shrinkRuns: 0, reruns: [] });
    expect(calls).toBe(reported.numRuns);
    const found = Number(/^n = (\d+)$/.exec(reported.counterexample!)![1]);
    expect(found).toBeGreaterThanOrEqual(100);
    expect(reported.message).toBe(
      `broke ${deadline}; not minimal: not shrunk, nor run again: the run's scenarios already broke ${deadline}, and each candidate would wait out the whole deadline to show it again; replay with --property property/test --seed 42 --path ${reported.path}`,
    );
    // The replay line finds the case reported.
    const replayed = await checkProperty(contextWith({ seed: 42, path: reported.path }), outlasting);
    expect(replayed.counterexample).toBe(`n = ${found}`);
  });

  it('shrinks as ever a failure that broke a rule besides the deadline rules already shown, or one the scenarios did not show', async () => {
    const deadline = 'operation.within-max-duration';
    const alsoStatus = spec(async (n) => (n >= 100 ? { broken: [deadline, 'answer.status'], exchanges: [n], notes: ['late', 'bad status'] } : HELD));
    const both = await checkProperty(contextWith({ seed: 42, deadlineRulesFailed: () => new Set([deadline]) }), alsoStatus);
    expect(both.counterexample).toBe('n = 100');
    expect(both.message).not.toMatch(/not minimal/);
    const lateOnly = spec(async (n) => (n >= 100 ? { broken: [deadline], exchanges: [n], notes: ['late'] } : HELD));
    const notShown = await checkProperty(contextWith({ seed: 42, deadlineRulesFailed: () => new Set() }), lateOnly);
    expect(notShown.counterexample).toBe('n = 100');
    expect(notShown.reruns.length).toBeGreaterThan(0);
    // While the scenarios still run nothing is known of what they show: the failure is shrunk as any other.
    const unknown = await checkProperty(contextWith({ seed: 42, deadlineRulesFailed: () => undefined }), lateOnly);
    expect(unknown.counterexample).toBe('n = 100');
  });

  it('waits, with a first failure that broke only deadline rules, to hear what the scenarios still running showed', async () => {
    const deadline = 'operation.within-max-duration';
    let shown: ReadonlySet<string> | undefined;
    let scenariosEnd!: () => void;
    const known = new Promise<void>((resolve) => (scenariosEnd = resolve)).then(() => {
      shown = new Set([deadline]);
    });
    setTimeout(scenariosEnd, 30);
    const lateOnly = spec(async (n) => (n >= 100 ? { broken: [deadline], exchanges: [n], notes: ['late'] } : HELD));
    const reported = await checkProperty(contextWith({ seed: 42, deadlineRulesFailed: () => shown, deadlineRulesKnown: known }), lateOnly);
    expect(reported).toMatchObject({ status: 'failed', ruleIds: [deadline], shrinkRuns: 0, reruns: [] });
    expect(reported.message).toMatch(/not shrunk, nor run again: the run's scenarios already broke/);
    // A failure that broke another rule too never waits for them: it is shrunk at once.
    const never = new Promise<void>(() => undefined);
    const alsoStatus = spec(async (n) => (n >= 100 ? { broken: [deadline, 'answer.status'], exchanges: [n], notes: ['late', 'bad status'] } : HELD));
    const both = await checkProperty(contextWith({ seed: 42, deadlineRulesFailed: () => undefined, deadlineRulesKnown: never }), alsoStatus);
    expect(both.counterexample).toBe('n = 100');
  });

  it('counts the cases it judged the same way in the live progress and the result, those a limit cut off nowhere', async () => {
    let ended = 0;
    let shrinkEnded = 0;
    const context = {
      ...contextWith({ seed: 5, maxExamples: 200, timeLimit: givenTimeLimit(400) }),
      caseEnded: (kind?: { shrinking: boolean }) => (kind?.shrinking ? shrinkEnded++ : ended++),
    } as PropertyContext;
    const result = await checkProperty(context, spec(async (_n, _suite, signal) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return signal.aborted ? HELD : HELD;
    }));
    expect(result.status).toBe('passed');
    expect(result.casesAsked).toBe(200);
    expect(result.numRuns - (result.shrinkRuns ?? 0)).toBe(ended);
    expect(result.shrinkRuns ?? 0).toBe(shrinkEnded);
    expect(ended).toBeLessThan(200);
    expect(result.message).toMatch(new RegExp(`^held over ${ended} of 200 cases before its time limit`));
  });

  it('turns a case that throws into an error of the kit instead of a counterexample', async () => {
    await expect(checkProperty(contextWith({}), spec(async () => Promise.reject(new Error('boom'))))).rejects.toThrow(/property\/test#1: the kit failed while running a case: boom/);
  });

  describe('shrinking several candidates at once', () => {
    /** A case that takes a few milliseconds, breaking a rule from 100 on, and how many ran at once at most. */
    function slowCases(): { runCase: PropertySpec<number>['runCase']; most: () => number; ran: number[] } {
      let inFlight = 0;
      let most = 0;
      const ran: number[] = [];
      return {
        ran,
        most: () => most,
        runCase: async (n) => {
          ran.push(n);
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setTimeout(resolve, 2));
          inFlight--;
          return n >= 100 ? brokenAt(n, `n is ${n}`) : HELD;
        },
      };
    }

    it('runs candidates ahead up to the width and finds the same counterexample as one at a time', async () => {
      const one = slowCases();
      const alone = await checkProperty(contextWith({ seed: 42 }), spec(one.runCase));
      const many = slowCases();
      const together = await checkProperty(contextWith({ seed: 42 }), { ...spec(many.runCase), shrinkWidth: () => 4 });
      expect(one.most()).toBe(1);
      expect(many.most()).toBe(4);
      expect(together).toMatchObject({ status: 'failed', counterexample: alone.counterexample, path: alone.path, ruleIds: alone.ruleIds });
      // Cases judged are those whose verdicts the property used: the same as one at a time.
      expect(together.numRuns).toBe(alone.numRuns);
      expect(many.ran.length).toBeGreaterThan(one.ran.length);
    });

    /**
     * Cases that end only when the test says so: each tick lets every case running end at once, as cases of one
     * operation-length do. How many ticks a property takes counts its rounds, whatever the speed of the machine.
     */
    async function inTicks(property: (runCase: PropertySpec<number>['runCase']) => Promise<PropertyResult>): Promise<{ result: PropertyResult; ticks: number; most: number }> {
      let waiting: Array<() => void> = [];
      let most = 0;
      const runCase: PropertySpec<number>['runCase'] = async (n) => {
        await new Promise<void>((end) => waiting.push(end));
        return n >= 100 ? brokenAt(n, `n is ${n}`) : HELD;
      };
      let done = false;
      const result = property(runCase).finally(() => (done = true));
      let ticks = 0;
      const settle = async (): Promise<void> => {
        for (let i = 0; i < 20; i++) await new Promise((next) => setImmediate(next));
      };
      for (await settle(); !done; await settle()) {
        most = Math.max(most, waiting.length);
        const ending = waiting;
        waiting = [];
        ending.forEach((end) => end());
        ticks++;
      }
      return { result: await result, ticks, most };
    }

    it('runs candidates of candidates still running when they follow from the value alone: fewer rounds, the same counterexample', async () => {
      const property = (candidatesFromValue: boolean) => (runCase: PropertySpec<number>['runCase']) =>
        checkProperty(contextWith({ seed: 42 }), { ...spec(runCase), shrinkWidth: () => 4, candidatesFromValue });
      const level = await inTicks(property(false));
      const deep = await inTicks(property(true));
      expect(deep.result).toMatchObject({ status: 'failed', counterexample: level.result.counterexample, path: level.result.path, numRuns: level.result.numRuns });
      expect(deep.result.counterexample).toBe('n = 100');
      expect(deep.most).toBeLessThanOrEqual(4);
      expect(deep.ticks).toBeLessThan(level.ticks);
    });

    it('runs a candidate the same as one judged already no more: it takes that verdict and counts as no candidate tried', async () => {
      // Cases of one key send the same: here every n of a fifty, which all hold or all fail alike.
      const caseKey = (n: number): string => String(Math.floor(n / 50));
      const plain = await inTicks((runCase) => checkProperty(contextWith({ seed: 42 }), { ...spec(runCase), shrinkWidth: () => 4, candidatesFromValue: true }));
      // The keys of the cases run once a failure was seen: shrink candidates, then the counterexample's re-runs.
      const keys: string[] = [];
      let failed = false;
      const keyed = await inTicks((runCase) =>
        checkProperty(contextWith({ seed: 42 }), {
          ...spec(async (n, ...rest) => {
            if (failed) keys.push(caseKey(n));
            const verdict = await runCase(n, ...rest);
            failed ||= verdict.broken.length > 0;
            return verdict;
          }),
          shrinkWidth: () => 4,
          candidatesFromValue: true,
          caseKey,
        }),
      );
      expect(keyed.result).toMatchObject({ status: 'failed', counterexample: plain.result.counterexample, path: plain.result.path });
      const candidates = keys.slice(0, keys.length - keyed.result.reruns.length);
      expect(candidates.length).toBeGreaterThan(0);
      expect(new Set(candidates).size).toBe(candidates.length);
      expect(keyed.result.shrinkRuns).toBeLessThan(plain.result.shrinkRuns!);
    });

    it('runs nothing ahead while replaying a path', async () => {
      const found = await checkProperty(contextWith({ seed: 42 }), { ...spec(slowCases().runCase), shrinkWidth: () => 4 });
      const replay = slowCases();
      const replayed = await checkProperty(contextWith({ seed: 42, path: found.path }), { ...spec(replay.runCase), shrinkWidth: () => 4 });
      expect(replayed).toMatchObject({ status: 'failed', counterexample: found.counterexample, numRuns: 1 });
      expect(replay.most()).toBe(1);
    });
  });

  describe('in batches of sub-cases run together', () => {
    function batched(runCase: PropertySpec<number>['runCase'], batchSize: number): PropertySpec<number> {
      return { ...spec(runCase), batchSize };
    }

    it('counts the sub-cases it judged, runs each batch at once and tags every sub-case with its own suite', async () => {
      const suites: string[] = [];
      let inFlight = 0;
      let most = 0;
      const result = await checkProperty(
        contextWith({ maxExamples: 25 }),
        batched(async (_n, caseSuite) => {
          suites.push(caseSuite);
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight--;
          return HELD;
        }, 10),
      );
      // 25 cases in batches of at most 10: 10, 10, then the 5 left; numRuns counts sub-cases, not batches.
      expect(result).toMatchObject({ status: 'passed', numRuns: 25, interrupted: false, message: 'held over 25 cases' });
      expect(most).toBe(10);
      expect(suites.slice(0, 2)).toEqual(['property/test#1.1', 'property/test#1.2']);
      expect(suites.filter((suite) => suite.startsWith('property/test#3.'))).toHaveLength(5);
      expect(new Set(suites).size).toBe(25);
    });

    it('sends only the cases asked for when they are fewer than a batch', async () => {
      let calls = 0;
      const result = await checkProperty(contextWith({ maxExamples: 3 }), batched(async () => (calls++, HELD), 20));
      expect(result.numRuns).toBe(3);
      expect(calls).toBe(3);
    });

    it('shrinks a failing batch to its failing sub-case without sending the sub-cases that already ran again', async () => {
      // Each value a new object, so that a sub-case sent again is told apart from an equal one made by shrinking.
      const calls: Array<{ value: { n: number }; caseSuite: string }> = [];
      const result = await checkProperty(contextWith({ seed: 42, maxExamples: 40 }), {
        name: 'property/test',
        arbitrary: fc.integer({ min: 0, max: 1000 }).map((n) => ({ n })),
        batchSize: 10,
        runCase: async (value, caseSuite) => (calls.push({ value, caseSuite }), value.n >= 500 ? brokenAt(value.n, `n is ${value.n}`) : HELD),
        describe: (value) => `n = ${value.n}`,
      });
      expect(result).toMatchObject({ status: 'failed', counterexample: 'n = 500', ruleIds: ['answer.status'] });
      const failingBatch = calls.find((call) => call.value.n >= 500)!.caseSuite.replace(/\.\d+$/, '.');
      const batch = calls.filter((call) => call.caseSuite.startsWith(failingBatch));
      expect(batch).toHaveLength(10);
      // Each sub-case of the failing batch went to the provisioner once: shrinking took their verdicts from the batch.
      const beforeReruns = calls.slice(0, calls.length - result.reruns.length);
      for (const { value } of batch) expect(beforeReruns.filter((call) => call.value === value)).toHaveLength(1);
      // Sub-cases judged: the batches, then the shrinks of the failing sub-case; the re-run is not counted.
      expect(result.numRuns).toBe(beforeReruns.length);
      // The shrinks are the cases judged after the failing batch: the 40 generated ones are apart from them.
      const generated = calls.findIndex((call) => call.caseSuite.startsWith(failingBatch)) + 10;
      expect(result.shrinkRuns).toBe(beforeReruns.length - generated);
      expect(result.shrinkRuns).toBeGreaterThan(0);
      expect(result.reruns).toEqual([{ reproduced: true, exchanges: [500], notes: ['n is 500'] }]);
    });

    it('replays the one shrunk sub-case its seed and path name', async () => {
      const failing = (seen: number[]): PropertySpec<number> => batched(async (n) => (seen.push(n), n >= 500 ? brokenAt(n, 'big') : HELD), 10);
      const found = await checkProperty(contextWith({ seed: 42, maxExamples: 40 }), failing([]));
      const seen: number[] = [];
      const replayed = await checkProperty(contextWith({ seed: 42, path: found.path }), failing(seen));
      expect(seen).toEqual([500, 500]); // the case, then its one re-run
      expect(replayed).toMatchObject({ status: 'failed', numRuns: 1, counterexample: 'n = 500', path: found.path });
    });

    it('is interrupted when the time limit cuts a batch short, and counts only the sub-cases it judged', async () => {
      const result = await checkProperty(
        contextWith({ maxExamples: 100, timeLimit: { text: 'PT0.3S', ms: 300, origin: { source: 'derived', chain: 2, maxOperationDuration: { text: 'PT0.1S', ms: 100, source: 'flag' } } } }),
        batched(async (n, _suite, signal) => {
          // The first batch holds at once; the next ones run until the limit tells them to stop.
          if (n >= 0 && _suite.startsWith('property/test#1.')) return HELD;
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          return HELD;
        }, 10),
      );
      expect(result).toMatchObject({ status: 'passed', interrupted: true, numRuns: 10 });
      expect(result.message).toBe(
        'held over 10 of 100 cases before its time limit PT0.3S (derived from 2 operations of up to PT0.1S (given by --max-operation-duration) one after another and the calls around them) stopped it',
      );
    });

    it('turns a sub-case that throws into an error of the kit, naming the sub-case', async () => {
      await expect(
        checkProperty(contextWith({}), batched(async (_n, caseSuite) => (caseSuite.endsWith('.3') ? Promise.reject(new Error('boom')) : HELD), 5)),
      ).rejects.toThrow(/property\/test#1\.3: the kit failed while running a case: boom/);
    });

    it('tells caseEnded as each sub-case ends, the cases cut off by nothing but the number asked for', async () => {
      let ended = 0;
      const context = { ...contextWith({ maxExamples: 5 }), caseEnded: () => ended++ } as PropertyContext;
      const result = await checkProperty(context, batched(async () => HELD, 2));
      expect(result.numRuns).toBe(5);
      expect(ended).toBe(5);
    });

    it('counts each sub-case of a batch in the live progress as it ends, not once the whole batch has', async () => {
      const release = new Map<string, () => void>();
      let ended = 0;
      const context = { ...contextWith({ maxExamples: 3 }), caseEnded: () => ended++ } as PropertyContext;
      const running = checkProperty(
        context,
        batched((_n, caseSuite) => new Promise<CaseVerdict>((resolve) => release.set(caseSuite, () => resolve(HELD))), 3),
      );
      const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
      while (release.size < 3) await settle();
      release.get('property/test#1.2')!();
      await settle();
      expect(ended).toBe(1);
      release.get('property/test#1.1')!();
      await settle();
      expect(ended).toBe(2);
      release.get('property/test#1.3')!();
      // Counted once each: the batch's verdict, taken when all three ended, tells nothing more.
      expect(await running).toMatchObject({ status: 'passed', numRuns: 3 });
      expect(ended).toBe(3);
    });
  });
});

describe('batches that follow the cases asked for', () => {
  it('puts the cases asked for in one batch up to the limit, records the size in the path, and replays that batch', async () => {
    const batches = new Map<string, number>();
    const runCase: PropertySpec<number>['runCase'] = async (n, caseSuite) => {
      const batch = caseSuite.replace(/\.\d+$/, '');
      batches.set(batch, (batches.get(batch) ?? 0) + 1);
      return n >= 900 ? brokenAt(n, `n is ${n}`) : HELD;
    };
    const property = { ...spec(runCase), batchSize: 10, batchLimit: 50 };
    const result = await checkProperty(contextWith({ seed: 7, maxExamples: 50 }), property);
    expect(result.status).toBe('failed');
    // The first batch held all 50 generated cases at once.
    expect(batches.get('property/test#1')).toBe(50);
    expect(result.path).toMatch(/^50\/\d+(:\d+)*$/);
    expect(result.message).toContain(`--path ${result.path}`);
    const replayed = await checkProperty(contextWith({ seed: 7, path: result.path }), property);
    expect(replayed.counterexample).toBe(result.counterexample);
  });

  it('keeps the property’s own size, and a path without one, when no limit is given or fewer cases are asked', async () => {
    const { batchSizeFor, pathWithBatch, splitBatchPath } = await import('../../suites/properties/batch-size.js');
    expect(batchSizeFor(20, 50, undefined)).toBe(20);
    expect(batchSizeFor(20, 50, 50)).toBe(50);
    expect(batchSizeFor(20, 200, 50)).toBe(50);
    expect(batchSizeFor(20, 5, 50)).toBe(20);
    expect(batchSizeFor(1, 50, 50)).toBe(1);
    expect(pathWithBatch('3:0:1', 20, 20)).toBe('3:0:1');
    expect(splitBatchPath(pathWithBatch('3:0:1', 50, 20))).toEqual({ size: 50, path: '3:0:1' });
    expect(splitBatchPath('3:0:1')).toEqual({ path: '3:0:1' });
  });
});

/**
 * A property whose cases break a rule only while at least `needed` cases are in flight (its own and load): a
 * provisioner that goes wrong only under the load of a big batch. Shrinking never finds it alone.
 */
function underLoadProperty(needed: number): { property: PropertySpec<number>; loads: string[]; most: () => number } {
  let inFlight = 0;
  let most = 0;
  const loads: string[] = [];
  const busy = async <R>(work: () => R): Promise<R> => {
    most = Math.max(most, ++inFlight);
    // Every case and load stays in flight a few turns, so that those started together overlap.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    const result = work();
    await new Promise((resolve) => setImmediate(resolve));
    inFlight--;
    return result;
  };
  const property: PropertySpec<number> = {
    ...spec(async (n) => busy(() => (n >= 900 && inFlight >= needed ? brokenAt(n, `n is ${n} with ${inFlight} in flight`) : HELD))),
    batchSize: 30,
    batchLimit: 50,
    shrinkWidth: () => 1,
    runAsLoad: async (n, caseSuite) => {
      loads.push(caseSuite);
      await busy(() => n);
    },
  };
  return { property, loads, most: () => most };
}

describe('a case judged beside its batch', () => {
  it('re-runs a failure that needed the batch’s load beside the batch, and its replay line finds it again', async () => {
    const found = underLoadProperty(40);
    const result = await checkProperty(contextWith({ seed: 7, maxExamples: 50 }), found.property);
    expect(result).toMatchObject({ status: 'failed', ruleIds: ['answer.status'], casesAsked: 50 });
    expect(result.path).toMatch(/^50\/0:\d+$/);
    // The re-run ran with the other 49 of its batch beside it, as load: judged, counted and shrunk by no one.
    expect(result.reruns[0]).toMatchObject({ reproduced: true });
    expect(found.loads).toHaveLength(49);
    expect(result.numRuns).toBe(50 + (result.shrinkRuns ?? 0));
    expect(found.most()).toBeGreaterThanOrEqual(50);

    const again = underLoadProperty(40);
    const replayed = await checkProperty(contextWith({ seed: 7, path: result.path }), again.property);
    expect(replayed).toMatchObject({ status: 'failed', numRuns: 1, counterexample: result.counterexample, path: result.path });
    // The replay ran the case beside the same 49, then its re-run did.
    expect(again.loads).toHaveLength(98);
  });

  it('runs a failure found alone alone again, and a property that cannot load runs a batch’s case alone', async () => {
    const alone = underLoadProperty(1);
    const result = await checkProperty(contextWith({ seed: 7, maxExamples: 50 }), alone.property);
    expect(result.status).toBe('failed');
    // Shrunk to a case that ran alone: its re-run and its replay run alone too.
    expect(result.path).toMatch(/^50\/0:\d+:\d+/);
    expect(result.reruns).toEqual([{ reproduced: true, exchanges: [900], notes: ['n is 900 with 1 in flight'] }]);
    const loadsAfterShrinking = alone.loads.length;
    expect(loadsAfterShrinking).toBe(0);

    const { runAsLoad: _none, ...noLoad } = underLoadProperty(40).property;
    const cannot = await checkProperty(contextWith({ seed: 7, maxExamples: 50 }), noLoad);
    // Without load its re-runs run alone: the failure that needed the batch shows as flaky, as it did before.
    expect(cannot.status).toBe('flaky');
  });

  it('gives a replay that holds beside its batch a few more runs, as a re-run gets, and counts each', async () => {
    let calls = 0;
    const found = underLoadProperty(40);
    const result = await checkProperty(contextWith({ seed: 7, maxExamples: 50 }), found.property);
    // The same case, failing under the same load only on its third run.
    const third: PropertySpec<number> = {
      ...found.property,
      runCase: async (n, caseSuite, signal) => (++calls >= 3 ? found.property.runCase(n, caseSuite, signal) : HELD),
    };
    const replayed = await checkProperty(contextWith({ seed: 7, path: result.path }), third);
    expect(replayed).toMatchObject({ status: 'failed', numRuns: 3, counterexample: result.counterexample });
    expect(replayed.message).toMatch(/broke answer\.status \(on run 3 of the replayed case beside its batch\); replay with /);
  });
});

describe('a shrunk case that fails only once', () => {
  it('gives way to the case its batch found when that one fails again beside its batch, and says it is not minimal', async () => {
    const { property } = underLoadProperty(40);
    // Besides failing under load, a value of 900 or more fails alone the first time it runs, and never again.
    const seen = new Set<number>();
    const once: PropertySpec<number> = {
      ...property,
      runCase: async (n, caseSuite, signal) => {
        const verdict = await property.runCase(n, caseSuite, signal);
        if (verdict.broken.length > 0 || n < 900 || seen.has(n)) return verdict;
        seen.add(n);
        return brokenAt(n, `n is ${n} once`);
      },
    };
    const result = await checkProperty(contextWith({ seed: 7, maxExamples: 50 }), once);
    expect(result.status).toBe('failed');
    expect(result.path).toMatch(/^50\/0:\d+$/);
    expect(result.message).toMatch(/^broke answer\.status; not minimal: the smaller cases shrinking found failed once and none of 3 re-runs showed them again, so this is the case its batch found, shown again beside that batch; replay with /);
    expect(result.reruns.some((rerun) => rerun.reproduced)).toBe(true);
    expect(result.shrinkRuns).toBeGreaterThan(0);

    const replayed = await checkProperty(contextWith({ seed: 7, path: result.path }), underLoadProperty(40).property);
    expect(replayed).toMatchObject({ status: 'failed', numRuns: 1, counterexample: result.counterexample });
  });
});

describe('neighbours of a case run beside it', () => {
  it('are the places after its own, wrapping around its batch, never its own, as many as were in flight', async () => {
    const { besideOf, neighboursOf } = await import('../../suites/properties/batch-load.js');
    const batch = ['a', 'b', 'c', 'd', 'e'];
    expect(neighboursOf(besideOf({ batch, index: 3 }, true, 16))).toEqual(['e', 'a', 'b', 'c']);
    expect(neighboursOf(besideOf({ batch, index: 3 }, false, 3))).toEqual(['e', 'a']);
    expect(neighboursOf(besideOf({ batch, index: 0 }, false, 1))).toEqual([]);
    expect(neighboursOf(besideOf({ batch, index: 1 }, false, 16))).toEqual(['c', 'd', 'e', 'a']);
  });
});
