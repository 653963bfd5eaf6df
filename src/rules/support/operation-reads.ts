import { formatMs } from '../../core/duration.js';
import { plural } from '../../core/text.js';
import type { Exchange, ExchangeTag } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import type { OperationView } from '../../transcript/views.js';
import { operations } from '../../transcript/views.js';
import type { Judgement } from '../types.js';
import { noAnswerThatWay } from './answer-ways.js';
import { neverAnswered, statusAnswered } from './answered-by.js';
import { notExercised } from './judgement.js';

/** What the rules about reads of GET /operations/{id} share: which reads there are, and how notes name them. */

/** Every tag of a GET /operations/{id} read, known operation or probe. */
const ALL_READ_TAGS: readonly ExchangeTag[] = ['poll', 'read-concurrent', 'read-after-final', 'read-unknown', 'read-malformed'];

/** Every GET /operations/{id} in the transcript, whichever id it named: the tags of reads are given to GETs only. */
export function allReads(transcript: Transcript): Exchange[] {
  return transcript.exchanges.filter((e) => ALL_READ_TAGS.includes(e.tag));
}

/** Reads of operations named by a 202 answer (polls and their probes), with the operation each belongs to. */
export function knownReads(ops: readonly OperationView[]): Array<{ op: OperationView; read: Exchange }> {
  return ops.flatMap((op) => op.reads.map((read) => ({ op, read })));
}

/**
 * Why no operation could be judged at all (not applicable when the provisioner answered every call at once),
 * or undefined when some operation was read.
 */
export function noOperationRead(transcript: Transcript): Judgement | undefined {
  const ops = operations(transcript);
  if (ops.length === 0) {
    const never = `${neverAnswered(transcript, 202, 'the provisioner never answered 202 with an operationId')}, so no operation was read`;
    return noAnswerThatWay(transcript, 202, 'no operation to read', never);
  }
  if (ops.every((op) => op.reads.length === 0)) return notExercised(`${plural(ops.length, 'operation was', 'operations were')} accepted but never read`);
  return undefined;
}

/** The read whose final answer arrived first: the answer the other readers are held to. */
export function firstFinalRead(op: OperationView): Exchange | undefined {
  return op.finalReads.find((r) => r.endedAt === op.firstFinalReceivedAt);
}

/** Short label of an answer for counts: the status, or the kind of transport error. */
export function answerLabel(exchange: Exchange): string {
  if (exchange.error) return exchange.error.kind;
  return String(exchange.response?.status ?? 'no answer');
}

/** What came back, as the end of a sentence: "answered 503", "was answered 502 by the proxy in front of the provisioner (nginx) after 3ms", "timed out after 10.0s". */
export function answered(exchange: Exchange): string {
  const error = exchange.error;
  if (!error) return statusAnswered(exchange);
  switch (error.kind) {
    case 'timeout':
      return `timed out after ${formatMs(exchange.endedAt - exchange.sentAt)}`;
    case 'refused':
      return 'had its connection refused';
    case 'reset':
      return 'had its connection reset';
    case 'dns':
      return 'failed: the host name did not resolve';
    case 'stopped':
    case 'other':
      return `failed: ${error.message}`;
  }
}

/** "read sent 1.2s after the 202": where a read of an operation stands in its life. */
export function readSinceAccepted(op: OperationView, read: Exchange): string {
  return `read sent ${formatMs(read.sentAt - op.acceptedAt)} after the 202`;
}

/** "read sent 0.4s after the final answer arrived" (or before it, for a concurrent reader). */
export function readSinceFinal(op: OperationView, read: Exchange): string {
  const arrived = op.firstFinalReceivedAt ?? read.sentAt;
  const gap = read.sentAt - arrived;
  return gap >= 0
    ? `read sent ${formatMs(gap)} after the first final answer arrived`
    : `read sent ${formatMs(-gap)} before the first final answer arrived`;
}

/** A read id as it may be printed: long malformed ids are cut so that a note stays one line. */
export function printableId(id: string | undefined): string {
  if (id === undefined) return '(none)';
  const quoted = JSON.stringify(id);
  return quoted.length <= 60 ? quoted : `${quoted.slice(0, 50)}…" (${id.length} characters)`;
}
