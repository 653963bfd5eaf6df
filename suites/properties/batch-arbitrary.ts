import fc from 'fast-check';

/** Where a one-item batch made by shrinking came from: the batch it was taken out of, and its place there. */
export interface BatchOrigin<T> {
  batch: readonly T[];
  index: number;
}

/**
 * Runs shrink candidates ahead of fast-check: `width(slot)` candidates of a case from that place may run at once,
 * and `start` is told of each candidate as it is taken from the stream, before fast-check asks for its verdict.
 */
export interface ShrinkAhead<T> {
  width(slot: number): number;
  /** `width`: the width of the candidate's place, which is also the most candidates that should run at once. */
  start(batch: readonly T[], width: number): void;
}

/** What a batch keeps to shrink: each item's own fast-check value (with its context) and the slot that made it. */
interface BatchContext<T> {
  items: ReadonlyArray<fc.Value<T>>;
  slots: readonly number[];
}

/**
 * A batch of independent items, one per slot, each made by its slot's own arbitrary: a property runs the items
 * of a batch at the same time. Shrinking a batch of several items gives the one-item batches in order, so a
 * failing batch shrinks to the one item that fails; a one-item batch shrinks as its item does, so it goes on
 * to the item's smallest form. Everything follows from the random source and the path, so `--seed --path`
 * replays exactly.
 */
export class BatchArbitrary<T> extends fc.Arbitrary<T[]> {
  private readonly origins = new WeakMap<readonly T[], BatchOrigin<T>>();
  /** The generated batch and place every one-item batch descends from: the singles, and all that shrinking made of them. */
  private readonly roots = new WeakMap<readonly T[], BatchOrigin<T>>();

  /** `slots[i]` makes the i-th item of every generated batch; their number is the batch size. */
  constructor(
    private readonly slots: ReadonlyArray<fc.Arbitrary<T>>,
    private readonly ahead?: ShrinkAhead<T>,
  ) {
    super();
    if (slots.length === 0) throw new Error('a batch needs at least one slot');
  }

  get size(): number {
    return this.slots.length;
  }

  /** The batch a one-item batch was shrunk out of, while both are alive; undefined for any other batch. */
  originOf(batch: readonly T[]): BatchOrigin<T> | undefined {
    return this.origins.get(batch);
  }

  /**
   * The generated batch a one-item batch descends from, and its place there, however far it was shrunk (while both
   * are alive). Undefined for a generated batch.
   */
  rootOf(batch: readonly T[]): BatchOrigin<T> | undefined {
    return this.roots.get(batch);
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T[]> {
    const items = this.slots.map((slot) => slot.generate(mrng, biasFactor));
    return this.batchValue(items, this.slots.map((_, i) => i));
  }

  canShrinkWithoutContext(value: unknown): value is T[] {
    // Items are shrunk by their own arbitraries, which need their contexts: a bare array cannot be shrunk.
    void value;
    return false;
  }

  shrink(value: T[], context: unknown): fc.Stream<fc.Value<T[]>> {
    if (!isBatchContext<T>(context)) return fc.Stream.nil();
    const { items, slots } = context;
    if (items.length === 1) {
      const slot = slots[0]!;
      const root = this.roots.get(value);
      const candidates = this.slots[slot]!.shrink(items[0]!.value_, items[0]!.context).map((item) => this.batchValue([item], [slot], root));
      const width = this.ahead ? Math.max(1, Math.floor(this.ahead.width(slot))) : 1;
      return width > 1 ? fc.stream(takenAhead(candidates, width, (candidate) => this.ahead!.start(candidate.value_, width))) : candidates;
    }
    return fc.stream(this.singles(value, context));
  }

  private *singles(batch: readonly T[], { items, slots }: BatchContext<T>): IterableIterator<fc.Value<T[]>> {
    for (let index = 0; index < items.length; index++) {
      const origin = { batch, index };
      const single = this.batchValue([items[index]!], [slots[index]!], origin);
      this.origins.set(single.value_, origin);
      yield single;
    }
  }

  private batchValue(items: ReadonlyArray<fc.Value<T>>, slots: readonly number[], root?: BatchOrigin<T>): fc.Value<T[]> {
    // value_, not value: the item itself, so that what ran is what its context describes (commands note what ran).
    const context: BatchContext<T> = { items, slots };
    const value = new fc.Value(
      items.map((item) => item.value_),
      context,
    );
    if (root) this.roots.set(value.value_, root);
    return value;
  }
}

/**
 * The candidates of `source` in their order, each taken from it (and told to `taken`) up to `width` places before
 * it is yielded: fast-check tries them one at a time, and the next ones are already on their way. Taking a shrink
 * stream early changes nothing it yields: its items depend on the shrunk value and its context alone.
 */
function* takenAhead<V>(source: Iterable<V>, width: number, taken: (value: V) => void): IterableIterator<V> {
  const iterator = source[Symbol.iterator]();
  const buffer: V[] = [];
  let exhausted = false;
  for (;;) {
    while (!exhausted && buffer.length < width) {
      const next = iterator.next();
      if (next.done) exhausted = true;
      else {
        buffer.push(next.value);
        taken(next.value);
      }
    }
    if (buffer.length === 0) return;
    yield buffer.shift()!;
  }
}

/** A batch of `size` items of one arbitrary. */
export function batchOf<T>(item: fc.Arbitrary<T>, size: number): BatchArbitrary<T> {
  return new BatchArbitrary(Array.from({ length: size }, () => item));
}

function isBatchContext<T>(context: unknown): context is BatchContext<T> {
  return typeof context === 'object' && context !== null && Array.isArray((context as BatchContext<T>).items) && Array.isArray((context as BatchContext<T>).slots);
}
