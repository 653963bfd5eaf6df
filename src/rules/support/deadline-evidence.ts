import { formatMs } from '../../core/duration.js';
import type { Exchange, TranscriptEvent } from '../../transcript/exchange.js';
import type { OperationView } from '../../transcript/views.js';
import { outcomeOf } from '../../transcript/views.js';
import { answered } from './operation-reads.js';

type PollEnded = Extract<TranscriptEvent, { type: 'poll-ended' }>;

/** What the finding needs of an operation: its 202 and its reads, sorted by when they were sent. */
export type ReadsOfWork = Pick<OperationView, 'accepted' | 'acceptedAt' | 'reads' | 'finalReads'>;

/**
 * What the reads of one operation prove about its deadline (maxOperationDuration after its 202).
 * - `within`: a read sent by the deadline got the final answer.
 * - `late`: proof that the work had not ended by the deadline: a read sent after it answered in_progress, or
 *   reads went on at the poll interval up to the deadline and none got a final answer.
 * - `unknown`: the work ended at some moment between two reads that lie around the deadline with more than a poll
 *   interval between the earlier one and the deadline: nobody asked at the deadline, so nothing is proven.
 * - `unjudged`: no final answer and no deadline reached (lost, stopped following, never read).
 */
export type DeadlineFinding =
  | { kind: 'within'; tookMs: number }
  | { kind: 'late'; note: string; exchanges: Exchange[] }
  | { kind: 'unknown'; note: string }
  | { kind: 'unjudged' };

/**
 * Timers fire late, more so under load: a reader that reads every poll interval sends its last read before the
 * deadline up to this much more than a poll interval before it.
 */
export function timerSlackMs(pollIntervalMs: number): number {
  return Math.max(250, pollIntervalMs / 10);
}

/**
 * The reads of `op` judged against its deadline. `ended`: how the kit's (or the observed control plane's) following
 * ended, when it did.
 */
export function deadlineFinding(op: ReadsOfWork, ended: PollEnded | undefined, limit: { ms: number; text: string }, pollIntervalMs: number): DeadlineFinding {
  const deadlineAt = op.acceptedAt + limit.ms;
  const since = (read: Exchange): string => formatMs(read.sentAt - op.acceptedAt);
  // Reads are sorted by when they were sent: the first final read is the one sent first.
  const first = op.finalReads[0];
  if (first && first.sentAt <= deadlineAt) return { kind: 'within', tookMs: first.sentAt - op.acceptedAt };

  const stillWorking = op.reads.find((read) => read.sentAt > deadlineAt && read.response?.status === 200 && outcomeOf(read) === 'in_progress');
  if (stillWorking) {
    return {
      kind: 'late',
      note: `a read sent ${since(stillWorking)} after the 202, past the deadline of ${limit.text}, answered in_progress: the work had not ended by the deadline`,
      exchanges: [stillWorking, op.accepted],
    };
  }

  const lastBefore = op.reads.filter((read) => read.sentAt <= deadlineAt).at(-1);
  // The reads went on at the poll interval up to the deadline (this is their last before it): the control plane
  // would have given up there.
  const keptReadingUntil = lastBefore !== undefined && lastBefore.sentAt + pollIntervalMs + timerSlackMs(pollIntervalMs) >= deadlineAt ? lastBefore : undefined;
  const lastWords = (last: Exchange): string => `the last read before it, sent ${since(last)} after the 202, ${readAnswer(last)}`;

  if (first) {
    if (keptReadingUntil) {
      return {
        kind: 'late',
        note: `no final answer by the deadline of ${limit.text}: ${lastWords(keptReadingUntil)}, and the first final answer came to a read sent ${since(first)} after the 202`,
        exchanges: [keptReadingUntil, first, op.accepted],
      };
    }
    const from = lastBefore ? `the read sent ${since(lastBefore)} after the 202 (which ${readAnswer(lastBefore)})` : 'the 202';
    return {
      kind: 'unknown',
      note: `its work ended between ${from} and the read sent ${since(first)} after it, which got the final answer; the deadline of ${limit.text} fell in that gap, when nobody read it, so whether the work ended in time is not known`,
    };
  }

  const pastDeadline = ended?.reason === 'deadline' || op.reads.some((read) => read.sentAt > deadlineAt);
  if (!pastDeadline) return { kind: 'unjudged' };
  if (keptReadingUntil) {
    return {
      kind: 'late',
      note: `no final answer within ${limit.text} of the 202: reads went on up to the deadline and none got one; ${lastWords(keptReadingUntil)}`,
      exchanges: [keptReadingUntil, op.accepted],
    };
  }
  const last = lastBefore ? `the last read before the deadline was sent ${since(lastBefore)} after the 202` : 'no read was sent before the deadline';
  return { kind: 'unknown', note: `no final answer came, but ${last}, more than a poll interval before it: whether the work would have ended in time is not known` };
}

/** "answered in_progress", "answered 502", "timed out after 10.0s". */
function readAnswer(read: Exchange): string {
  return read.response?.status === 200 && outcomeOf(read) !== undefined ? `answered ${outcomeOf(read)}` : answered(read);
}
