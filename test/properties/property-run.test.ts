import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { stopForKitFault, verdictsClosed } from '../../suites/properties/check/property-run.js';
import { givenTimeLimit } from '../support/time-limit.js';
import { HELD, integerSpec, propertyRuns } from './property-run-support.js';

const runOf = propertyRuns();
const spec = integerSpec(async () => HELD);

describe('a property run’s shared state', () => {
  it('starts with nothing judged, no failure and shrinking’s window not yet opened', () => {
    expect(runOf(spec).state).toEqual({ over: false, cutShort: false, batches: 0, judged: 0, shrinkJudged: 0, replayRuns: 0, toldEnded: expect.any(WeakSet), longestCaseMs: 0, shrinkEndsAt: Number.POSITIVE_INFINITY, shrinkStopped: false });
  });

  it('stops its cases when its time limit passes, and when the run is stopped', async () => {
    const timed = runOf(spec, { settings: { timeLimit: givenTimeLimit(1) } });
    await once(timed.limit, 'abort');
    expect((timed.limit.reason as Error).message).toBe('the property time limit is over');

    const stop = new AbortController();
    const stopped = runOf(spec, { signal: stop.signal });
    expect(stopped.limit.aborted).toBe(false);
    stop.abort(new Error('stopped by the user'));
    expect(stopped.limit.aborted).toBe(true);
  });

  it('takes verdicts until fast-check stops or the limit strikes, and only the limit makes it interrupted', () => {
    const run = runOf(spec);
    expect(verdictsClosed(run)).toBe(false);
    run.state.over = true;
    expect(verdictsClosed(run)).toBe(true);
    expect(run.state.cutShort).toBe(false);

    const stop = new AbortController();
    const cut = runOf(spec, { signal: stop.signal });
    stop.abort();
    expect(verdictsClosed(cut)).toBe(true);
    expect(cut.state.cutShort).toBe(true);
  });

  it('keeps the first error of the kit and stops the property', () => {
    const run = runOf(spec);
    stopForKitFault(run, new Error('first'));
    stopForKitFault(run, new Error('second'));
    expect(run.state).toMatchObject({ over: true, kitFault: new Error('first') });
  });
});
