import type { Exchange, Millis, SubmitKind, TranscriptEvent } from './exchange.js';
import { READ_TAGS } from './exchange.js';
import type { Transcript } from './transcript.js';

/** Outcomes a body may carry. */
export type Outcome = 'in_progress' | 'succeeded' | 'failed';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsed body of a response when it is a JSON object, whatever its content type. */
export function bodyObject(exchange: Exchange): Record<string, unknown> | undefined {
  const json = exchange.response?.json;
  return json?.ok && isObject(json.value) ? json.value : undefined;
}

/** The `outcome` field of a JSON object body, when it is one of the three outcomes. */
export function outcomeOf(exchange: Exchange): Outcome | undefined {
  const outcome = bodyObject(exchange)?.outcome;
  return outcome === 'in_progress' || outcome === 'succeeded' || outcome === 'failed' ? outcome : undefined;
}

/** A 200 answer whose body says succeeded or failed. */
export function isFinalAnswer(exchange: Exchange): boolean {
  if (exchange.response?.status !== 200) return false;
  const outcome = outcomeOf(exchange);
  return outcome === 'succeeded' || outcome === 'failed';
}

export function isContractJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(mediaType);
}

/** A 200 answer whose body says in_progress. */
export function isInProgressAnswer(exchange: Exchange): boolean {
  return exchange.response?.status === 200 && outcomeOf(exchange) === 'in_progress';
}

/** A read, or a transport error, that says nothing about the work: 5xx, timeout, refused, reset. */
export function isTransient(exchange: Exchange): boolean {
  // An exchange without a response is one that ended in a transport error.
  return exchange.response === undefined || exchange.response.status >= 500;
}

/** POST /plan and POST /apply calls with a change set (not bad-input probes). */
export function submissions(transcript: Transcript): Exchange[] {
  return transcript.exchanges.filter((e) => e.tag === 'plan' || e.tag === 'apply');
}

/** A 202 answer's operationId, when the body holds it as a string. */
export function acceptedOperationId(exchange: Exchange): string | undefined {
  if (exchange.response?.status !== 202) return undefined;
  const id = bodyObject(exchange)?.operationId;
  return typeof id === 'string' ? id : undefined;
}

/** An accepted operation with every read of it, in the order the reads were sent. */
export interface OperationView {
  operationId: string;
  kind: SubmitKind;
  changeSet?: string;
  /** The first 202 answer that carried this id. */
  accepted: Exchange;
  /** When the 202 answer was complete: the control plane's clock for the deadline starts here. */
  acceptedAt: Millis;
  /** Every read of this id (polls and probes), sorted by sentAt. Frozen: judges share it. */
  reads: Exchange[];
  /** Reads that answered 200 with succeeded or failed. Frozen: judges share it. */
  finalReads: Exchange[];
  /** Earliest time a final answer could have been given: the first final read's sentAt. */
  firstFinalSentAt?: Millis;
  /** When a final answer was first received by any reader. Reads sent after this are "after final". */
  firstFinalReceivedAt?: Millis;
}

/** The operations last grouped for each transcript, and how many exchanges it held then (it only grows). */
const grouped = new WeakMap<Transcript, { exchanges: number; views: OperationView[] }>();

/**
 * Operations grouped by id, in the order their first 202 arrived. Reads of unknown/malformed ids are left out.
 * Grouped once per transcript and length, and shared frozen: a dozen judges ask for them, and a long run has
 * a hundred thousand reads to group.
 */
export function operations(transcript: Transcript): OperationView[] {
  const known = grouped.get(transcript);
  // Stryker disable next-line ConditionalExpression: a cache; grouping again gives the same views
  if (known && known.exchanges === transcript.exchanges.length) return known.views;
  const views = Object.freeze(groupOperations(transcript).map(freezeView)) as OperationView[];
  // Stryker disable next-line ObjectLiteral: a cache; an entry that never matches only groups again
  grouped.set(transcript, { exchanges: transcript.exchanges.length, views });
  return views;
}

function freezeView(view: OperationView): OperationView {
  Object.freeze(view.reads);
  Object.freeze(view.finalReads);
  return Object.freeze(view);
}

function groupOperations(transcript: Transcript): OperationView[] {
  const byId = new Map<string, { kind: SubmitKind; accepted: Exchange; reads: Exchange[] }>();
  for (const exchange of transcript.exchanges) {
    if (exchange.tag !== 'plan' && exchange.tag !== 'apply') continue;
    const id = acceptedOperationId(exchange);
    if (id === undefined || byId.has(id)) continue;
    byId.set(id, { kind: exchange.tag, accepted: exchange, reads: [] });
  }
  for (const exchange of transcript.exchanges) {
    if (!READ_TAGS.includes(exchange.tag)) continue;
    // Stryker disable next-line ConditionalExpression: the test only narrows the type; byId has no entry for a read without an id either way
    if (exchange.operationId !== undefined) byId.get(exchange.operationId)?.reads.push(exchange);
  }
  return [...byId].map(([operationId, { kind, accepted, reads }]) => operationView(operationId, kind, accepted, reads));
}

function operationView(operationId: string, kind: SubmitKind, accepted: Exchange, reads: Exchange[]): OperationView {
  reads.sort((a, b) => a.sentAt - b.sentAt);
  const finalReads = reads.filter(isFinalAnswer);
  const view: OperationView = { operationId, kind, changeSet: accepted.changeSet, accepted, acceptedAt: accepted.endedAt, reads, finalReads };
  if (finalReads.length > 0) {
    // reduce, not Math.min(...times): a spread of very many reads overflows the stack.
    view.firstFinalSentAt = finalReads.reduce((first, r) => Math.min(first, r.sentAt), Number.POSITIVE_INFINITY);
    view.firstFinalReceivedAt = finalReads.reduce((first, r) => Math.min(first, r.endedAt), Number.POSITIVE_INFINITY);
  }
  return view;
}

/** Reads sent after a final answer of the operation was received (happens-before holds for these). */
export function readsAfterFinal(op: OperationView): Exchange[] {
  const received = op.firstFinalReceivedAt;
  // Stryker disable next-line ConditionalExpression: the test only narrows the type; sentAt >= undefined is false for every read
  return received === undefined ? [] : op.reads.filter((r) => r.sentAt >= received);
}

/** Reads that surely reached the provisioner before it gave any final answer: they ended before the first final read was sent. */
export function readsSurelyBeforeFinal(op: OperationView): Exchange[] {
  const firstSent = op.firstFinalSentAt;
  return firstSent === undefined ? op.reads : op.reads.filter((r) => r.endedAt <= firstSent);
}

/** Final answers of the run: 200 answers to POSTs and final reads, each with its change set name. */
export function finalAnswers(transcript: Transcript): Exchange[] {
  const posts = submissions(transcript).filter(isFinalAnswer);
  const reads = operations(transcript).flatMap((op) => op.finalReads.map((r) => ({ ...r, changeSet: r.changeSet ?? op.changeSet })));
  return [...posts, ...reads].sort((a, b) => a.seq - b.seq);
}

/** The poller's poll-ended events: how the following of each operation ended. */
export function pollEnds(transcript: Transcript): Array<Extract<TranscriptEvent, { type: 'poll-ended' }>> {
  return transcript.events.filter((event): event is Extract<TranscriptEvent, { type: 'poll-ended' }> => event.type === 'poll-ended');
}

/**
 * Whether a call sent at `sentAt` came after an answer that ended at `endedAt`. Recorded traffic keeps times to the
 * millisecond (a HAR's startedDateTime), so a call sent within a millisecond of the end counts as after it: the
 * same exchanges then pair the same way live and from a file.
 */
export function sentAfterEnd(endedAt: Millis, sentAt: Millis): boolean {
  return endedAt <= sentAt + 1;
}
