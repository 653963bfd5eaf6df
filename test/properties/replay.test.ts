import { describe, expect, it } from 'vitest';
import { RERUNS, replayBeside } from '../../suites/properties/check/replay.js';
import { broken, HELD, integerSpec, propertyRuns } from './property-run-support.js';

const runOf = propertyRuns();
const BESIDE = { origin: { batch: [1, 2, 3], index: 0 }, count: 2 };
const noLoad = async (): Promise<void> => undefined;

describe('replaying a case beside its batch', () => {
  it('runs it again while it holds, up to RERUNS more times, counting each run that held as a case judged', async () => {
    let runs = 0;
    const ended: boolean[] = [];
    const run = runOf(integerSpec(async () => (++runs, HELD), { runAsLoad: noLoad }), { caseEnded: (kind) => void ended.push(kind?.shrinking ?? true) });
    const record = await replayBeside(run, 1, BESIDE);
    expect(record.verdict).toEqual(HELD);
    expect(runs).toBe(RERUNS + 1);
    expect(run.state.replayRuns).toBe(RERUNS + 1);
    expect(run.state.judged).toBe(RERUNS);
    expect(ended).toEqual(Array.from({ length: RERUNS }, () => false));
  });

  it('stops at the run that fails, and says which it was', async () => {
    let runs = 0;
    const run = runOf(integerSpec(async (n) => (++runs === 2 ? broken(n) : HELD), { runAsLoad: noLoad }));
    const record = await replayBeside(run, 1, BESIDE);
    expect(record.verdict).toEqual(broken(1));
    expect(run.state.replayRuns).toBe(2);
  });

  it('runs once a case judged alone, or one of a property that cannot run cases as load', async () => {
    const alone = runOf(integerSpec(async () => HELD, { runAsLoad: noLoad }));
    await replayBeside(alone, 1, { ...BESIDE, count: 0 });
    expect(alone.state.replayRuns).toBe(1);
    const withoutLoad = runOf(integerSpec(async () => HELD));
    await replayBeside(withoutLoad, 1, BESIDE);
    expect(withoutLoad.state.replayRuns).toBe(1);
    expect(withoutLoad.state.judged).toBe(0);
  });
});
