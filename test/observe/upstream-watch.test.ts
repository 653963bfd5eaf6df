import { describe, expect, it } from 'vitest';
import { DOWN_AFTER_CALLS, DOWN_AFTER_MS, UpstreamWatch, type CallEnd } from '../../src/observe/upstream-watch.js';

const refused = (at: number): CallEnd => ({ sentAt: at, endedAt: at + 5, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
const answered = (at: number, status: number): CallEnd => ({ sentAt: at, endedAt: at + 5, status });

describe('the upstream watch: stopped answering, and answering again, on the calls own clock', () => {
  it(`is down after ${DOWN_AFTER_CALLS} failures in a row spanning ${DOWN_AFTER_MS} ms, once, and up at the first other answer`, () => {
    const watch = new UpstreamWatch();
    expect(watch.ended(refused(0))).toBeUndefined();
    expect(watch.ended(answered(4_000, 502))).toBeUndefined();
    // Three in a row, but within 10 s: load shedding, not an upstream gone.
    expect(watch.ended(answered(9_000, 503))).toBeUndefined();
    const down = watch.ended(answered(10_000, 504));
    expect(down).toEqual({ kind: 'upstream-down', at: 10_005, since: 0, failedCalls: 4, last: 'answered 504' });
    expect(watch.state).toEqual({ answering: false, since: 0, failedCalls: 4 });
    // Told once, however long it lasts.
    expect(watch.ended(refused(20_000))).toBeUndefined();
    // A 500 is the provisioner answering, badly: it is back.
    expect(watch.ended(answered(30_000, 500))).toEqual({ kind: 'upstream-up', at: 30_005, downForMs: 30_005, failedCalls: 5, status: 500 });
    expect(watch.state).toEqual({ answering: true });
  });

  it('says nothing of a burst of 503s within a second, nor of failures an answer interrupts', () => {
    const watch = new UpstreamWatch();
    for (let i = 0; i < 100; i++) expect(watch.ended(answered(i * 10, 503))).toBeUndefined();
    expect(watch.ended(answered(2_000, 200))).toBeUndefined();
    expect(watch.ended(refused(3_000))).toBeUndefined();
    expect(watch.ended(refused(8_000))).toBeUndefined();
    expect(watch.ended(answered(12_000, 202))).toBeUndefined();
    expect(watch.ended(refused(14_000))).toBeUndefined();
    expect(watch.state).toEqual({ answering: true });
  });

  it('needs the calls, not only the time: two failures a minute apart are not yet an upstream gone', () => {
    const watch = new UpstreamWatch();
    expect(watch.ended(refused(0))).toBeUndefined();
    expect(watch.ended(refused(60_000))).toBeUndefined();
    expect(watch.ended(refused(120_000))?.kind).toBe('upstream-down');
  });
});
