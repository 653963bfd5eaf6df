import type { SubmitKind } from '../transcript/exchange.js';
import type { ChangeSet } from './change-set.js';
import type { OperationIdSource } from './operation-ids.js';
import type { Operation, OperationTimes } from './operation.js';
import type { OutcomeBody } from './outcomes.js';
import type { Reply } from './responses.js';

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/** A plan or apply call whose body is a valid change set. */
export interface Call {
  kind: SubmitKind;
  changeSet: ChangeSet;
  /** Earlier calls of the same kind with the same change set that this process still remembers. */
  earlier: { running: number; ended: number };
}

/** A 200 (final answer) or 202 ({operationId}) answer to a POST, before it is written. */
export interface PostAnswer {
  status: 200 | 202;
  body: Record<string, unknown>;
  contentType: string;
}

/** A read of a known operation, before it is written; a string body is sent as it is, an object as JSON. */
export interface ReadAnswer {
  status: number;
  body: OutcomeBody | string;
  contentType: string;
  headers?: Record<string, string>;
}

/** What a read of a known operation is about. */
export interface ReadFacts {
  /** running: the work has not ended; final: this read gives the final answer first; after-final: it was given before. */
  phase: 'running' | 'final' | 'after-final';
  operation: Operation;
  /** How much of the work is done, 0 ≤ fraction < 1; meaningful while running. */
  fraction: number;
  /** The reference's clock at this read, Unix ms. */
  now: number;
}

/**
 * The places where a fault changes what the reference does. The correct reference uses none of them; each
 * fault fills in the one or two it needs, and the core consults them at exactly one point each.
 */
export interface Seams {
  /** Input parsing: how a POST body becomes a JSON value; a Reply refuses the body outright. */
  parseInput?(text: string, standard: (text: string) => JsonParse): JsonParse | Reply;
  /** Latency: how long an answer to a valid POST is held back, ms. */
  postDelayMs?(options: { slowAnswerMs: number }): number;
  /** Refusal: an error answered to a valid call instead of doing its work. */
  refuseCall?(call: Call): Reply | undefined;
  /** Capacity: the answer when maxOperations are in progress; by default the call runs at once and answers 200. */
  whenFull?(call: Call): Reply | undefined;
  /** Id source: makes the ids of one running reference (called again after a restart). */
  operationIds?(): OperationIdSource;
  /** Timing: when an accepted operation becomes known to reads and when its work ends. */
  operationTimes?(times: OperationTimes, accepted: { at: number; workMs: number }): OperationTimes;
  /** Final answer: what the work of a call ends with, whether answered at once or read after a 202. */
  finalAnswer?(answer: OutcomeBody, call: Call): OutcomeBody;
  /** Post reply: the 200 or 202 answer to a POST. */
  postAnswer?(answer: PostAnswer): PostAnswer;
  /** Read reply: the answer to a read of a known operation. */
  readAnswer?(answer: ReadAnswer, read: ReadFacts): ReadAnswer | Promise<ReadAnswer>;
  /** Retention: the operation is forgotten as soon as a read has given its final answer. */
  forgetsOnFinalRead?: boolean;
  /** Not-found reply: every 404, and the operation id a read asked for. */
  notFound?(reply: Reply, about: { operationId?: string }): Reply;
  /** Durability: the operations taken over from the store when the reference starts or restarts. */
  restore?(stored: Operation[], now: number): Operation[];
}
