import type { SubmitKind } from '../transcript/exchange.js';
import type { ChangeSet } from './change-set.js';
import type { FaultName } from './faults.js';
import type { OutcomeBody } from './outcomes.js';

/** What reads have seen of an operation. Only faults that imitate stateful reads act on it. */
export interface ReadHistory {
  /** Reads answered before the final answer was first given. */
  readsBeforeFinal: number;
  /** A read has been answered with the final answer. */
  finalGiven: boolean;
  /** Reads answered after that. */
  readsAfterFinal: number;
}

/** The work behind one 202 answer. Its state follows from the clock, so nothing runs in the background. */
export interface Operation {
  id: string;
  kind: SubmitKind;
  changeSet: ChangeSet;
  acceptedAt: number;
  /** Reads before this time answer as if the id were unknown. */
  knownFrom: number;
  /** The work ends at this time; Infinity when it never does. */
  finishesAt: number;
  /** The answer once the work has ended, fixed when the work was accepted. */
  final: OutcomeBody;
  history: ReadHistory;
}

export interface OperationTimes {
  knownFrom: number;
  finishesAt: number;
}

// A queue worker that picks work up late: half the work time, but never more than half a second.
const MAX_REGISTRATION_DELAY_MS = 500;

/** When an operation accepted now becomes known and when its work ends; the timing faults act here. */
export function operationTimes(acceptedAt: number, workMs: number, fault: FaultName | undefined): OperationTimes {
  const knownFrom = fault === 'late-registration' ? acceptedAt + Math.min(workMs / 2, MAX_REGISTRATION_DELAY_MS) : acceptedAt;
  const finishesAt = fault === 'never-finishes' ? Number.POSITIVE_INFINITY : acceptedAt + workMs;
  return { knownFrom, finishesAt };
}

export function isFinished(operation: Operation, now: number): boolean {
  return now >= operation.finishesAt;
}

/** Operations by id: kept while their work runs and for retentionMs after it ended. */
export class OperationStore {
  private readonly byId = new Map<string, Operation>();

  constructor(private readonly retentionMs: number) {}

  add(operation: Operation): void {
    this.byId.set(operation.id, operation);
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
    this.byId.delete(id);
  }

  /** Operations whose work has not ended: what the capacity limit counts. */
  running(now: number): number {
    this.prune(now);
    let count = 0;
    for (const operation of this.byId.values()) if (!isFinished(operation, now)) count++;
    return count;
  }

  private prune(now: number): void {
    for (const [id, operation] of this.byId) {
      if (operation.finishesAt + this.retentionMs <= now) this.byId.delete(id);
    }
  }
}
