import type { LoadedChangeSet } from '../../../src/config/change-sets.js';
import type { Exchange, SubmitKind } from '../../../src/transcript/exchange.js';
import { isFinalAnswer } from '../../../src/transcript/views.js';
import { unexpectedAnswer } from '../../../src/poller/unexpected-answer.js';

/**
 * How the work of an operation ended, as far as the case saw: a final answer, a 404, a 200 that is no
 * operation answer, or the deadline of its follow.
 */
export type Ending = 'final' | 'lost' | 'unexpected' | 'deadline';

/**
 * An operation this case started: what the case needs to choose its next commands. Whether its answers keep
 * the contract is the rules' business, judged on the case's exchanges after every command.
 */
export interface TrackedOperation {
  /** 1 for the first operation the case started: commands name operations by it before their ids are known. */
  ordinal: number;
  id: string;
  kind: SubmitKind;
  changeSet: LoadedChangeSet;
  /** The 202 answer that named it: a follow starts its deadline there. */
  accepted: Exchange;
  /** Set once the control plane would stop reading it; until then a follow and an apply's lock still wait on it. */
  ended?: Ending;
  /** Operation-lengths from the case's start by which its work has ended at the latest (see chain.ts). */
  endsBy: number;
}

/** Only what the case itself created; nothing is assumed about the provisioner's other work. */
export interface ModelState {
  /** In the order their 202 answers arrived. */
  operations: TrackedOperation[];
  /** Operation-lengths the case has waited for one after another so far: the latest `endsBy` it followed. */
  waited: number;
}

export function emptyModel(): ModelState {
  return { operations: [], waited: 0 };
}

/**
 * The operation a command's index names, counting back from the one started last (index 0), which is what a
 * step most often means to act on. Indexes wrap, so any index names one once an operation exists.
 */
export function operationAt(model: Readonly<ModelState>, index: number): TrackedOperation | undefined {
  const { operations } = model;
  return operations.length === 0 ? undefined : operations[operations.length - 1 - (index % operations.length)];
}

/** Whether the work has ended as far as the case knows. */
export function hasEnded(operation: TrackedOperation): boolean {
  return operation.ended !== undefined;
}

/**
 * What a group of reads tells the case about the end of the work: a final answer ends it, and so do a 404 and
 * a 200 that is no operation answer, on which the control plane stops reading (whether they were allowed is
 * for the rules to say).
 */
export function noteReads(operation: TrackedOperation, reads: readonly Exchange[]): void {
  if (operation.ended) return;
  if (reads.some((read) => isFinalAnswer(read) && unexpectedAnswer(read) === undefined)) operation.ended = 'final';
  else if (reads.some((read) => read.response?.status === 404)) operation.ended = 'lost';
  else if (reads.some((read) => unexpectedAnswer(read) !== undefined)) operation.ended = 'unexpected';
}

/** The control plane holds one lock per application and environment: an apply waits until the last one ended. */
export function applyInFlight(model: Readonly<ModelState>, lockKey: string): boolean {
  return model.operations.some((op) => op.kind === 'apply' && op.changeSet.lockKey === lockKey && !hasEnded(op));
}
