import { formatMs } from '../../core/duration.js';
import type { JudgeContext } from '../../core/judge-context.js';
import { plural } from '../../core/text.js';
import type { Exchange } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { overlaps } from '../../transcript/situations.js';
import { isTransient, operations } from '../../transcript/views.js';
import { broken, evidence, notExercised } from './judgement.js';
import { answerLabel, knownReads, printableId } from './operation-reads.js';
import type { Evidence, Judgement } from '../types.js';

/**
 * Ids the provisioner never answered (unknown UUIDs, malformed ids): a 5xx or a timeout says nothing, so it
 * takes an id read again over a couple of poll intervals, while the provisioner answered reads of its own
 * operations, to tell a provisioner that never answers such ids from one that was down for a moment.
 */

/** Reads of one id it takes, spread over two poll intervals, before its silence counts. */
export const READS_BEFORE_GIVING_UP = 3;
// Timers may fire a little early against the transcript's clock: the spread is checked with some slack.
const SPREAD_SLACK = 0.9;

interface Window {
  startedAt: number;
  endedAt: number;
}

/** Each answer label with how many reads got it, in the order first seen. */
function labelCounts(reads: readonly Exchange[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const read of reads) counts.set(answerLabel(read), (counts.get(answerLabel(read)) ?? 0) + 1);
  return counts;
}

function breakdown(counts: Map<string, number>): string {
  return [...counts].map(([label, n]) => `${n}×${label}`).join(', ');
}

/** "answered 500" when every read got one status, else "failed transiently" with the breakdown for the parentheses. */
function transientText(reads: readonly Exchange[]): { what: string; breakdown?: string } {
  const counts = labelCounts(reads);
  // One label for every read, and the first got an answer: every read got that status.
  const first = reads[0]!;
  if (counts.size === 1 && first.response) return { what: `answered ${first.response.status}` };
  return { what: 'failed transiently', breakdown: breakdown(counts) };
}

/** "answered 500 (6 reads over 2.0s)", "failed transiently (3 reads over 2.0s: 2×500, 1×timeout)"; `noun` names the tries. */
export function transientSummary(reads: readonly Exchange[], noun = 'read'): string {
  const { what, breakdown } = transientText(reads);
  const window = windowOf(reads);
  return `${what} (${plural(reads.length, noun)} over ${formatMs(window.endedAt - window.startedAt)}${breakdown ? `: ${breakdown}` : ''})`;
}

/** "answered 200", or "were answered (3×200, 1×404)": what answered reads came back with. */
export function answeredText(reads: readonly Exchange[]): string {
  const counts = labelCounts(reads);
  const [only] = counts.keys();
  return counts.size === 1 ? `answered ${only}` : `were answered (${breakdown(counts)})`;
}

export function windowOf(reads: readonly Exchange[]): Window {
  return { startedAt: Math.min(...reads.map((r) => r.sentAt)), endedAt: Math.max(...reads.map((r) => r.endedAt)) };
}

/** The reads of each id the kit insisted on: read often enough, over two poll intervals. */
function insistedIds(sent: readonly Exchange[], pollIntervalMs: number): Exchange[][] {
  const byId = new Map<string | undefined, Exchange[]>();
  for (const read of sent) byId.set(read.operationId, [...(byId.get(read.operationId) ?? []), read]);
  return [...byId.values()].filter((reads) => insistedOn(reads, pollIntervalMs));
}

/** Whether the kit tried often enough, over two poll intervals, for silence to count. */
export function insistedOn(tries: readonly Exchange[], pollIntervalMs: number): boolean {
  if (tries.length < READS_BEFORE_GIVING_UP) return false;
  const sentTimes = tries.map((r) => r.sentAt);
  return Math.max(...sentTimes) - Math.min(...sentTimes) >= 2 * pollIntervalMs * SPREAD_SLACK;
}

/** What the reads of ids that got no answer show, when the kit insisted on them. */
export interface SilentIds {
  /** Ids read often enough over two poll intervals to judge. */
  insisted: number;
  /** Whether reads of known operations were made while an insisted id was read. */
  comparable: boolean;
  /** One per insisted id that stayed silent while known reads made meanwhile were answered. */
  faults: Evidence[];
  /** The known reads answered meanwhile. */
  answeredMeanwhile: Exchange[];
}

/**
 * Judges ids (`kind`: "unknown id", "malformed id") none of whose reads got an answer below 500; `sent` holds
 * their reads, sorted by sentAt. An id stays silent for good only when it was read often enough over two poll
 * intervals while reads of known operations made meanwhile were answered: then the 5xx is about the id.
 */
export function judgeSilentIds(transcript: Transcript, context: JudgeContext, sent: readonly Exchange[], kind: string): SilentIds {
  const insisted = insistedIds(sent, context.pollIntervalMs);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrayDeclaration: without an insisted id the reads of known operations are never looked at; this only skips finding them
  const known = insisted.length > 0 ? knownReads(operations(transcript)).map(({ read }) => read) : [];
  const faults: Evidence[] = [];
  const contrast = new Set<Exchange>();
  let comparable = false;
  for (const reads of insisted) {
    const window = windowOf(reads);
    const made = known.filter((read) => overlaps(read, window));
    comparable ||= made.length > 0;
    // A known read answered while the id was not is what shows the 5xx is about the id, not an outage.
    const meanwhile = made.filter((read) => !isTransient(read));
    if (meanwhile.length === 0) continue;
    for (const read of meanwhile) contrast.add(read);
    const note = `every read of the ${kind} ${printableId(reads[0]!.operationId)} ${transientSummary(reads)}, while ${plural(meanwhile.length, 'read')} of known operations made meanwhile ${answeredText(meanwhile)}`;
    faults.push(evidence(note, ...reads, meanwhile[0]!));
  }
  return { insisted: insisted.length, comparable, faults, answeredMeanwhile: [...contrast] };
}

/** Why silent ids could not be judged: never insisted on, or the provisioner looked down meanwhile. */
export function silenceUnjudged(silent: SilentIds, kind: string): string {
  if (silent.insisted === 0) return `no ${kind} was read ${READS_BEFORE_GIVING_UP} times over two poll intervals, so the failures may have been passing`;
  return silent.comparable
    ? `so did every read of a known operation made meanwhile: the provisioner looked down, which says nothing about ${kind}s`
    : `no operation of the provisioner's own was read meanwhile: nothing shows it answers any read`;
}

/** Judges a run in which every read of an unknown id failed transiently; `sent` is sorted by sentAt. */
export function judgeUnansweredUnknownIds(transcript: Transcript, context: JudgeContext, sent: readonly Exchange[]): Judgement {
  const what = `every read of an unknown id ${transientSummary(sent)}`;
  const silent = judgeSilentIds(transcript, context, sent, 'unknown id');
  if (silent.faults.length === 0) return notExercised(`${what}, and ${silenceUnjudged(silent, 'unknown id')}`);
  return broken(
    `${what}, while reads of known operations ${answeredText(silent.answeredMeanwhile)}: the control plane would wait out the deadline for lost work instead of failing it at once`,
    silent.faults,
  );
}
