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

  it('lets calls meant to leave together go only once a slot is free for each, and no later call passes them', async () => {
    const slots = new SendSlots(4);
    const held = await slots.takeTogether(3);
    expect(held).toHaveLength(3);
    const started: string[] = [];
    const group = slots.takeTogether(3).then((giveBacks) => {
      started.push('group');
      return giveBacks;
    });
    const single = slots.take().then((giveBack) => {
      started.push('single');
      return giveBack;
    });
    await new Promise((resolve) => setImmediate(resolve));
    // One slot is free, but the group came first and needs three: nothing starts.
    expect(started).toEqual([]);
    held[0]!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([]);
    held[1]!();
    // Three free at once: the group goes, all its calls at the same moment; the single call still waits.
    expect(await group).toHaveLength(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['group']);
    held[2]!();
    (await single)();
    expect(started).toEqual(['group', 'single']);
  });

  it('gives a group larger than the slots as many slots as there are', async () => {
    const slots = new SendSlots(2);
    const giveBacks = await slots.takeTogether(4);
    expect(giveBacks).toHaveLength(2);
    let next = false;
    const waiting = slots.take().then(() => (next = true));
    await Promise.resolve();
    expect(next).toBe(false);
    giveBacks[1]!();
    // Giving one back twice frees it once.
    giveBacks[1]!();
    await waiting;
    expect(next).toBe(true);
  });
});
