import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BatchArbitrary, batchOf, type ShrinkNode } from '../../suites/properties/batch-arbitrary.js';

const ITEM = fc.integer({ min: 0, max: 1000 });
const FAILS = (n: number): boolean => n >= 500;

/** Checks a synthetic property over batches, keeping every batch the predicate saw, in order. */
function checkBatches(arbitrary: fc.Arbitrary<number[]>, params: fc.Parameters<[number[]]> = {}): { seen: number[][]; details: fc.RunDetails<[number[]]> } {
  const seen: number[][] = [];
  const details = fc.check(
    fc.property(arbitrary, (batch) => {
      seen.push([...batch]);
      return !batch.some(FAILS);
    }),
    { seed: 11, numRuns: 50, ...params },
  );
  return { seen, details };
}

describe('the batch arbitrary', () => {
  it('makes batches of exactly its size, each place from its own arbitrary', () => {
    for (const batch of fc.sample(batchOf(ITEM, 7), { numRuns: 30, seed: 3 })) expect(batch).toHaveLength(7);
    const places = new BatchArbitrary([fc.constant('a'), fc.constant('b'), fc.constant('c')]);
    expect(fc.sample(places, { numRuns: 5, seed: 1 })).toEqual(Array.from({ length: 5 }, () => ['a', 'b', 'c']));
  });

  it('shrinks a failing batch to its one-item batches in order, then the failing item to its smallest form', () => {
    const { seen, details } = checkBatches(batchOf(ITEM, 5));
    expect(details.failed).toBe(true);
    const first = seen.findIndex((batch) => batch.some(FAILS));
    const failing = seen[first]!;
    expect(failing).toHaveLength(5);
    // The one-item batches of the failing batch, in order, up to the first item that fails on its own.
    const culprit = failing.findIndex(FAILS);
    expect(seen.slice(first + 1, first + 2 + culprit)).toEqual(failing.slice(0, culprit + 1).map((n) => [n]));
    // From there on every batch tried has one item: the culprit's own shrinks.
    expect(seen.slice(first + 1).every((batch) => batch.length === 1)).toBe(true);
    expect(details.counterexample).toEqual([[500]]);
  });

  it('shrinks a one-item batch as its item shrinks, wrapped', () => {
    const { seen, details } = checkBatches(batchOf(ITEM, 1));
    expect(seen.every((batch) => batch.length === 1)).toBe(true);
    expect(details.counterexample).toEqual([[500]]);
  });

  it('tells where a one-item batch came from while shrinking, and nothing for a generated batch', () => {
    const arbitrary = batchOf(ITEM, 4);
    const origins: Array<ReturnType<typeof arbitrary.originOf>> = [];
    const generated: Array<ReturnType<typeof arbitrary.originOf>> = [];
    let failingBatch: readonly number[] | undefined;
    fc.check(
      fc.property(arbitrary, (batch) => {
        if (batch.length > 1) generated.push(arbitrary.originOf(batch));
        else origins.push(arbitrary.originOf(batch));
        const fails = batch.some(FAILS);
        if (fails && batch.length > 1) failingBatch ??= batch;
        return !fails;
      }),
      { seed: 5, numRuns: 50 },
    );
    expect(generated.every((origin) => origin === undefined)).toBe(true);
    const culprit = failingBatch!.findIndex(FAILS);
    // The one-item batches taken out of the failing batch name it and their place; shrinks of an item name nothing.
    expect(origins.slice(0, culprit + 1)).toEqual(failingBatch!.slice(0, culprit + 1).map((_, index) => ({ batch: failingBatch, index })));
    expect(origins.slice(culprit + 1).every((origin) => origin === undefined)).toBe(true);
  });

  it('replays the shrunk one-item batch from the seed and path alone, without trying the batches on the way', () => {
    const found = checkBatches(batchOf(ITEM, 6), { seed: 21 });
    expect(found.details.failed).toBe(true);
    const replayed = checkBatches(batchOf(ITEM, 6), { seed: 21, path: found.details.counterexamplePath!, endOnFailure: true });
    expect(replayed.seen).toEqual([[500]]);
    expect(replayed.details.counterexample).toEqual(found.details.counterexample);
  });

  it('opens each failing one-item batch of a wide place before fast-check tries its candidates, and asks for the very values its node holds', () => {
    const plain = checkBatches(batchOf(ITEM, 1), { seed: 8 });
    const opened: Array<ShrinkNode<number>> = [];
    const asked: number[][] = [];
    let notFromLastOpened = 0;
    const ahead = new BatchArbitrary([ITEM], {
      width: () => 4,
      opened: (node) => {
        opened.push(node);
        // Taking candidates early, as running ahead does, two levels down, changes nothing fast-check sees.
        for (let i = 0; i < 6; i++) node.candidate(i)?.candidate(0);
      },
    });
    const details = fc.check(
      fc.property(ahead, (batch) => {
        const shrinking = asked.some((seen) => seen.some(FAILS));
        asked.push([...batch]);
        const last = opened.at(-1);
        if (shrinking && (!last || !Array.from({ length: 100 }, (_, i) => last.candidate(i)?.batch).includes(batch))) notFromLastOpened++;
        if (shrinking) expect(ahead.nodeOf(batch)?.batch).toBe(batch);
        return !batch.some(FAILS);
      }),
      { seed: 8, numRuns: 50 },
    );
    // The same search, candidate for candidate, and the same counterexample as without running ahead.
    expect(asked).toEqual(plain.seen);
    expect(details.counterexample).toEqual(plain.details.counterexample);
    // Every candidate asked for while shrinking is one of the last opened node's, the very array it holds.
    expect(notFromLastOpened).toBe(0);
    expect(opened.length).toBe(asked.filter((batch) => batch.some(FAILS)).length);
  });

  it('opens nothing for a place of width 1', () => {
    const opened: unknown[] = [];
    fc.check(fc.property(new BatchArbitrary([ITEM], { width: () => 1, opened: (node) => opened.push(node) }), (batch) => !batch.some(FAILS)), { seed: 8 });
    expect(opened).toEqual([]);
  });

  it('takes shrink candidates ahead up to the width of their place, telling each before fast-check asks for it, in the same order', () => {
    const plain = checkBatches(batchOf(ITEM, 1), { seed: 8 });
    const started = new Set<readonly number[]>();
    const asked: number[][] = [];
    let askedBeforeStarted = 0;
    let shrinkLevels = 0;
    const ahead = new BatchArbitrary([ITEM], { width: () => 4, start: (batch) => started.add(batch) });
    const details = fc.check(
      fc.property(ahead, (batch) => {
        const shrinking = asked.some((seen) => seen.some(FAILS));
        asked.push([...batch]);
        if (shrinking && !started.has(batch)) askedBeforeStarted++;
        if (batch.some(FAILS)) shrinkLevels++;
        return !batch.some(FAILS);
      }),
      { seed: 8, numRuns: 50 },
    );
    // The same search, candidate for candidate, and the same counterexample as without taking ahead.
    expect(asked).toEqual(plain.seen);
    expect(details.counterexample).toEqual(plain.details.counterexample);
    // Every candidate fast-check asked for while shrinking had been taken ahead; each level leaves at most three untried.
    expect(askedBeforeStarted).toBe(0);
    const shrinkQuestions = asked.length - asked.findIndex((batch) => batch.some(FAILS)) - 1;
    expect(started.size).toBeGreaterThan(shrinkQuestions);
    expect(started.size).toBeLessThanOrEqual(shrinkQuestions + 3 * shrinkLevels);
  });

  it('shrinks no bare array: items need their contexts', () => {
    const arbitrary = batchOf(ITEM, 2);
    expect(arbitrary.canShrinkWithoutContext([1, 2])).toBe(false);
    expect([...arbitrary.shrink([1, 2], undefined)]).toEqual([]);
  });
});
