import { describe, expect, it } from 'vitest';
import { LongReadTurns } from '../../src/client/long-read-turns.js';

/** Lets the promises a turn given back settles run their course. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('turns for long reads', () => {
  it('grants as many as it has at once and the rest in the order asked, as turns are given back', async () => {
    const turns = new LongReadTurns(2);
    const [a, b, c, d] = [turns.turn(), turns.turn(), turns.turn(), turns.turn()];
    expect(a.ask()).toBeUndefined();
    expect(b.ask()).toBeUndefined();
    const granted: string[] = [];
    void c.ask()!.then(() => granted.push('c'));
    void d.ask()!.then(() => granted.push('d'));
    expect([turns.held, turns.queued]).toEqual([2, 2]);
    b.end();
    b.end();
    await settled();
    expect(granted).toEqual(['c']);
    expect([turns.held, turns.queued]).toEqual([2, 1]);
    a.end();
    await settled();
    expect(granted).toEqual(['c', 'd']);
    c.end();
    d.end();
    expect([turns.held, turns.queued]).toEqual([0, 0]);
  });

  it('withdraws an ask that was never granted, so the turn goes to the next read', async () => {
    const turns = new LongReadTurns(1);
    const [holder, gone, next] = [turns.turn(), turns.turn(), turns.turn()];
    holder.ask();
    let goneGranted = false;
    void gone.ask()!.then(() => (goneGranted = true));
    const nextGranted = next.ask()!;
    gone.end();
    holder.end();
    await nextGranted;
    expect(goneGranted).toBe(false);
    expect([turns.held, turns.queued]).toEqual([1, 0]);
    // A claim asks once: a second ask neither takes a second turn nor waits.
    expect(next.ask()).toBeUndefined();
    next.end();
    expect(turns.held).toBe(0);
  });
});
