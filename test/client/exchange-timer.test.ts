import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExchangeTimer } from '../../src/client/exchange-timer.js';

describe("an exchange's time limit", () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => void vi.useRealTimers());

  it('times out after its limit, the time it was held not counted', () => {
    let timedOut = 0;
    const timer = new ExchangeTimer(1_000, () => timedOut++);
    vi.advanceTimersByTime(400);
    timer.hold();
    vi.advanceTimersByTime(5_000);
    expect(timedOut).toBe(0);
    timer.resume();
    vi.advanceTimersByTime(599);
    expect(timedOut).toBe(0);
    vi.advanceTimersByTime(1);
    expect(timedOut).toBe(1);
    timer.resume();
    vi.advanceTimersByTime(5_000);
    expect(timedOut).toBe(1);
  });

  it('never times out once cleared, held or not', () => {
    let timedOut = 0;
    const running = new ExchangeTimer(100, () => timedOut++);
    running.clear();
    const held = new ExchangeTimer(100, () => timedOut++);
    held.hold();
    held.clear();
    held.resume();
    vi.advanceTimersByTime(1_000);
    expect(timedOut).toBe(0);
  });
});
