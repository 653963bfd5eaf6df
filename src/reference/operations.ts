import type { Operation, ReadHistory } from './operation.js';
import type { Seams } from './seams.js';
import type { StoreBackend } from './store-file.js';

export type { Operation, OperationTimes, ReadHistory } from './operation.js';

export function isFinished(operation: Operation, now: number): boolean {
  return now >= operation.finishesAt;
}

export function freshHistory(): ReadHistory {
  return { readsBeforeFinal: 0, finalGiven: false, readsAfterFinal: 0 };
}

/**
 * Operations by id, each kept until `retentionMs` after its work ended (its final answer became readable).
 * Every change is written through to the backend before the call that made it is answered, so a process
 * started on the same backend takes the operations over.
 */
export class OperationStore {
  private readonly byId = new Map<string, Operation>();

  private constructor(
    private readonly retentionMs: number,
    private readonly backend: StoreBackend,
  ) {}

  /** Loads what the backend holds, hands it to the durability seam, and writes the result back. */
  static open(backend: StoreBackend, retentionMs: number, restore: Seams['restore'], now: number): OperationStore {
    const store = new OperationStore(retentionMs, backend);
    const stored = backend.load() ?? [];
    for (const operation of restore ? restore(stored, now) : stored) store.byId.set(operation.id, operation);
    store.prune(now);
    store.save();
    return store;
  }

  add(operation: Operation): void {
    this.byId.set(operation.id, operation);
    this.save();
  }

  /** The operation as a reader sees it: absent before it is known and after it is forgotten. */
  known(id: string, now: number): Operation | undefined {
    this.prune(now);
    const operation = this.byId.get(id);
    return operation && now >= operation.knownFrom ? operation : undefined;
  }

  /** The operation held under an id, known to readers yet or not. */
  held(id: string, now: number): Operation | undefined {
    this.prune(now);
    return this.byId.get(id);
  }

  forget(id: string): void {
    if (this.byId.delete(id)) this.save();
  }

  /** Operations whose work has not ended: what the capacity limit counts. */
  running(now: number): number {
    this.prune(now);
    let count = 0;
    for (const operation of this.byId.values()) if (!isFinished(operation, now)) count++;
    return count;
  }

  private prune(now: number): void {
    let pruned = false;
    for (const [id, operation] of this.byId) {
      if (operation.finishesAt + this.retentionMs > now) continue;
      this.byId.delete(id);
      pruned = true;
    }
    if (pruned) this.save();
  }

  private save(): void {
    this.backend.save([...this.byId.values()]);
  }
}
