import type { LoadedChangeSet } from '../../../src/config/change-sets.js';
import type { Exchange, Millis, SubmitKind } from '../../../src/transcript/exchange.js';

/** An operation this case started, and what the case has learnt of it from its own reads. */
export interface TrackedOperation {
  /** 1 for the first operation the case started: commands name operations by it before their ids are known. */
  ordinal: number;
  id: string;
  kind: SubmitKind;
  changeSet: LoadedChangeSet;
  /** The 202 answer that named it. */
  accepted: Exchange;
  /** The final answer that arrived first: every later answer is held to it. */
  firstFinal?: Exchange;
  /** When the earliest read that got a final answer was sent: a read that ended before it surely came before any final. */
  firstFinalSentAt?: Millis;
  /** A read after the final answer found it forgotten (404), which the contract allows. */
  forgotten: boolean;
  /** A read found it missing before any final answer: the control plane would fail this work. */
  lost: boolean;
}

/** Only what the case itself created or saw; nothing is assumed about the provisioner's other work. */
export interface ModelState {
  /** In the order their 202 answers arrived. */
  operations: TrackedOperation[];
  /** Random ids the provisioner answered 404 for. */
  unknownIds: Set<string>;
}

export function emptyModel(): ModelState {
  return { operations: [], unknownIds: new Set() };
}

/**
 * The operation a command's index names, counting back from the one started last (index 0), which is what a
 * step most often means to act on. Indexes wrap, so any index names one once an operation exists.
 */
export function operationAt(model: Readonly<ModelState>, index: number): TrackedOperation | undefined {
  const { operations } = model;
  return operations.length === 0 ? undefined : operations[operations.length - 1 - (index % operations.length)];
}

/** Whether the work has ended as far as the case knows: a final answer was seen, or the control plane gave up on it. */
export function hasEnded(operation: TrackedOperation): boolean {
  return operation.firstFinal !== undefined || operation.lost;
}

/** The control plane holds one lock per application and environment: an apply waits until the last one ended. */
export function applyInFlight(model: Readonly<ModelState>, lockKey: string): boolean {
  return model.operations.some((op) => op.kind === 'apply' && op.changeSet.lockKey === lockKey && !hasEnded(op));
}
