import { describe, expect, it } from 'vitest';
import { SendSlots } from '../../src/client/send-slots.js';

describe('the slots calls wait for before their clock starts', () => {
  it('lets as many calls go as there are slots, and the next in order once one is given back', async () => {
    const slots = new SendSlots(2);
    const first = await slots.take();
    const second = await slots.take();
    const started: string[] = [];
    const third = slots.take().then((giveBack) => {
      started.push('third');
      return giveBack;
    });
    const fourth = slots.take().then((giveBack) => {
      started.push('fourth');
      return giveBack;
    });
    await Promise.resolve();
    expect(started).toEqual([]);
    first();
    // Giving a slot back twice frees it once.
    first();
    await third;
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['third']);
    second();
    (await fourth)();
    expect(started).toEqual(['third', 'fourth']);
    (await third)();
    // Every slot is free again: two calls go at once.
    await Promise.all([slots.take(), slots.take()]);
  });

  it('never has fewer than one slot', async () => {
    const slots = new SendSlots(0);
    const giveBack = await slots.take();
    let second = false;
    const waiting = slots.take().then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    giveBack();
    await waiting;
    expect(second).toBe(true);
  });
});
