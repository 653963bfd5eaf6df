import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { COLLECT_AFTER_BYTES, CollectionSchedule } from '../../src/client/collection-schedule.js';

describe('CollectionSchedule', () => {
  it('collects once the bytes read pass its limit, then counts again from zero', () => {
    const garbage = new CollectionSchedule(1000);
    expect(garbage.read(600)).toBe(false);
    expect(garbage.read(400)).toBe(true);
    expect(garbage.read(999)).toBe(false);
    expect(garbage.read(1)).toBe(true);
  });

  it('never collects for a run of small answers below the limit', () => {
    const garbage = new CollectionSchedule();
    let collected = 0;
    for (let read = 0; read < 10_000; read++) if (garbage.read(300)) collected++;
    expect(10_000 * 300).toBeLessThan(COLLECT_AFTER_BYTES);
    expect(collected).toBe(0);
  });

  it('collects once every so many exchanges ended', () => {
    const garbage = new CollectionSchedule(COLLECT_AFTER_BYTES, 3);
    const collected = Array.from({ length: 7 }, () => garbage.exchangeEnded());
    expect(collected).toEqual([false, false, true, false, false, true, false]);
  });

  it('turns --expose-gc off again: contexts made later have no gc', () => {
    new CollectionSchedule(1).read(1);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
