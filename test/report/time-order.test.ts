import { describe, expect, it } from 'vitest';
import { inTimeOrder, piecesInTimeOrder } from '../../src/report/time-order.js';

describe('exchanges in time order', () => {
  const seqOf = (item: { seq: number }): number => item.seq;
  const sentAtOf = (item: { seq: number; at?: number }): number | undefined => item.at;

  it('orders by the time sent, not by seq: a slow call sent first is recorded after a quick one', () => {
    const items = [
      { seq: 7, at: 300 },
      { seq: 3, at: 100 },
      { seq: 2, at: 200 },
    ];
    expect(inTimeOrder(items, sentAtOf, seqOf).map(seqOf)).toEqual([3, 2, 7]);
  });

  it('breaks ties by seq and puts exchanges of unknown time last, leaving its input as it was', () => {
    const items = [{ seq: 9 }, { seq: 5, at: 100 }, { seq: 4, at: Number.NaN }, { seq: 2, at: 100 }];
    expect(inTimeOrder(items, sentAtOf, seqOf).map(seqOf)).toEqual([2, 5, 4, 9]);
    expect(items.map(seqOf)).toEqual([9, 5, 4, 2]);
  });

  it('orders pieces of evidence by their earliest exchange, pieces of no known time last in the order given', () => {
    const pieces: Array<{ note: string; exchanges: Array<{ seq: number; at?: number }> }> = [
      { note: 'late', exchanges: [{ seq: 9, at: 900 }] },
      { note: 'unknown', exchanges: [{ seq: 8 }] },
      { note: 'early', exchanges: [{ seq: 7, at: 700 }, { seq: 3, at: 100 }] },
      { note: 'none', exchanges: [] },
    ];
    expect(piecesInTimeOrder(pieces, (piece) => piece.exchanges, sentAtOf, seqOf).map((piece) => piece.note)).toEqual(['early', 'late', 'unknown', 'none']);
  });
});
