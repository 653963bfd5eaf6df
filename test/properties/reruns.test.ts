import { describe, expect, it } from 'vitest';
import type { SubCaseRecord } from '../../suites/properties/batch-verdicts.js';
import { confirmFailure, rerunsOf } from '../../suites/properties/check/reruns.js';
import { RERUNS } from '../../suites/properties/check/replay.js';
import { broken, HELD, integerSpec, propertyRuns } from './property-run-support.js';

const runOf = propertyRuns();
const noLoad = async (): Promise<void> => undefined;

function failure(value: number, beside?: SubCaseRecord<number>['beside']): SubCaseRecord<number> {
  return { value, caseSuite: `property/unit#${value}`, verdict: broken(value), ...(beside && { beside }) };
}

describe('the re-runs of a counterexample', () => {
  it('stop at the first run that breaks a rule the case broke', async () => {
    let runs = 0;
    const run = runOf(integerSpec(async (n) => (++runs === 2 ? broken(n) : HELD)));
    expect(await rerunsOf(run, failure(4))).toEqual([
      { reproduced: false, exchanges: [], notes: [] },
      { reproduced: true, exchanges: [4], notes: ['case 4'] },
    ]);
  });

  it('are RERUNS at most, and none for a failure not worth shrinking or once the run is stopped', async () => {
    const run = runOf(integerSpec(async () => HELD));
    expect(await rerunsOf(run, failure(4))).toHaveLength(RERUNS);
    const notWorth = runOf(integerSpec(async (n) => broken(n)));
    notWorth.state.notWorthShrinking = ['operation.deadline'];
    expect(await rerunsOf(notWorth, failure(4))).toEqual([]);
    const stop = new AbortController();
    stop.abort();
    expect(await rerunsOf(runOf(integerSpec(async (n) => broken(n)), { signal: stop.signal }), failure(4))).toEqual([]);
  });

  it('confirm the counterexample with the path that replays it, the batch size in front when not the property’s own', async () => {
    const run = runOf(integerSpec(async (n) => broken(n), { batchSize: 2, batchLimit: 50 }), { settings: { maxExamples: 10 } });
    const confirmed = await confirmFailure(run, failure(4), '0:1');
    expect(confirmed).toMatchObject({ failure: { value: 4 }, path: '10/0:1', fellBack: false });
    expect(confirmed.reruns).toHaveLength(1);
  });

  it('fall back to the case its batch found when the smaller one shows nothing again and that one does, beside its batch', async () => {
    const run = runOf(integerSpec(async (n) => (n === 40 ? broken(n) : HELD), { runAsLoad: noLoad }));
    run.state.firstFailure = failure(40, { origin: { batch: [39, 40, 41], index: 1 }, count: 2 });
    const confirmed = await confirmFailure(run, failure(4), '3:0:0');
    expect(confirmed).toMatchObject({ failure: { value: 40 }, path: '3:1', fellBack: true });
    expect(confirmed.reruns).toEqual([{ reproduced: true, exchanges: [40], notes: ['case 40'] }]);
  });

  it('keep the flaky counterexample when the batch’s case shows nothing again either', async () => {
    const run = runOf(integerSpec(async () => HELD, { runAsLoad: noLoad }));
    run.state.firstFailure = failure(40, { origin: { batch: [39, 40, 41], index: 1 }, count: 2 });
    const confirmed = await confirmFailure(run, failure(4), '3:0:0');
    expect(confirmed).toMatchObject({ failure: { value: 4 }, path: '3:0:0', fellBack: false });
    expect(confirmed.reruns.some((rerun) => rerun.reproduced)).toBe(false);
  });
});
