import fc from 'fast-check';

/** Where a one-item batch made by shrinking came from: the batch it was taken out of, and its place there. */
export interface BatchOrigin<T> {
  batch: readonly T[];
  index: number;
}

/**
 * A one-item batch in the shrink tree: its candidates in fast-check's order, each taken from its item's shrink stream
 * once and kept, so that fast-check and whatever runs candidates ahead of it (shrink-ahead.ts) see the very same
 * values. Taking a stream early changes nothing it yields when its items follow from the value and its context.
 */
export interface ShrinkNode<T> {
  /** The one-item batch this node stands for, as fast-check asks for its verdict. */
  readonly batch: readonly T[];
  /** Its place among its parent's candidates (0 for a case shrinking started from). */
  readonly index: number;
  /** Its parent's place among its own parent's candidates (0 when it has none). */
  readonly parentIndex: number;
  candidate(index: number): ShrinkNode<T> | undefined;
}

/**
 * Runs shrink candidates ahead of fast-check: `width(slot)` candidates of a case from that place may run at once.
 * Either `opened` is told of each failing one-item batch whose candidates fast-check is about to try, and chooses
 * from its tree; or `start` is told of each candidate as it is taken from the stream, up to `width` places before
 * fast-check asks for its verdict.
 */
export interface ShrinkAhead<T> {
  width(slot: number): number;
  /** `width`: the width of the node's place, which is also the most candidates that should run at once. */
  opened?(node: ShrinkNode<T>, width: number): void;
  /** `width`: the width of the candidate's place, which is also the most candidates that should run at once. */
  start?(batch: readonly T[], width: number): void;
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
  /** The shrink-tree node of every one-item batch shrinking made or was asked to shrink. */
  private readonly nodes = new WeakMap<readonly T[], Node<T>>();

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

  /** The shrink-tree node of a one-item batch fast-check shrank to or shrank from; undefined for any other batch. */
  nodeOf(batch: readonly T[]): ShrinkNode<T> | undefined {
    return this.nodes.get(batch);
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
      const node = this.nodeFor(value, context);
      const width = this.ahead ? Math.max(1, Math.floor(this.ahead.width(slots[0]!))) : 1;
      if (width > 1 && this.ahead?.opened) this.ahead.opened(node, width);
      if (width > 1 && this.ahead?.start) {
        const start = this.ahead.start.bind(this.ahead);
        return fc.stream(takenAhead(node.values(), width, (candidate) => start(candidate.value_, width)));
      }
      return fc.stream(node.values());
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

  private nodeFor(value: T[], context: BatchContext<T>, index = 0, parentIndex = 0): Node<T> {
    let node = this.nodes.get(value);
    if (!node) {
      const item = context.items[0]!;
      const slot = context.slots[0]!;
      const root = this.roots.get(value);
      const candidates = (): Iterable<Node<T>> => {
        let place = 0;
        return this.slots[slot]!.shrink(item.value_, item.context).map((candidate) => {
          const made = this.batchValue([candidate], [slot], root);
          return this.nodeFor(made.value_, made.context as BatchContext<T>, place++, index);
        });
      };
      node = new Node(value, context, index, parentIndex, candidates);
      this.nodes.set(value, node);
    }
    return node;
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

/** A one-item batch and the candidates of its item, taken from the item's shrink stream as they are first needed. */
class Node<T> implements ShrinkNode<T> {
  private readonly taken: Array<Node<T>> = [];
  private source: Iterator<Node<T>> | undefined;
  private exhausted = false;

  constructor(
    readonly batch: T[],
    private readonly context: BatchContext<T>,
    readonly index: number,
    readonly parentIndex: number,
    private readonly candidates: () => Iterable<Node<T>>,
  ) {}

  candidate(index: number): Node<T> | undefined {
    while (this.taken.length <= index && !this.exhausted) {
      this.source ??= this.candidates()[Symbol.iterator]();
      const next = this.source.next();
      if (next.done) this.exhausted = true;
      else this.taken.push(next.value);
    }
    return this.taken[index];
  }

  /** The candidates as fast-check takes them: the same values however often it asks. */
  *values(): IterableIterator<fc.Value<T[]>> {
    for (let index = 0; ; index++) {
      const node = this.candidate(index);
      if (!node) return;
      yield new fc.Value(node.batch, node.context);
    }
  }
}

/**
 * The candidates of `source` in their order, each taken from it (and told to `taken`) up to `width` places before
 * it is yielded: fast-check tries them one at a time, and the next ones are already on their way.
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
