import type { Exchange, Millis } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { operations, outcomeOf } from '../../transcript/views.js';

/** What one read answered, as the timeline colours it. */
export type TickKind = 'in-progress' | 'succeeded' | 'failed' | 'not-found' | 'transient' | 'other';

export interface TimelineTick {
  seq: number;
  /** Milliseconds since the run's first exchange was sent. */
  at: number;
  kind: TickKind;
  probe: boolean;
  /** One line for the tooltip: which read, and what came back. */
  label: string;
}

export type LaneEnd = 'final' | 'lost' | 'unexpected' | 'deadline' | 'aborted' | 'open';

export interface TimelineLane {
  operationId: string;
  changeSet?: string;
  kind: 'plan' | 'apply';
  suite: string;
  /** When the 202 arrived (ms since the start). */
  start: number;
  /** When following ended (final answer, 404, unexpected answer, deadline or stop), or the last read when no end was recorded. */
  end: number;
  endReason: LaneEnd;
  /** The 202 plus maxOperationDuration. */
  deadline: number;
  ticks: TimelineTick[];
}

/** Everything the timeline draws: one lane per operation, plus periods when the kit disturbed the target. */
export interface Timeline {
  /** Milliseconds covered: from the first exchange sent to the last one ended. */
  span: number;
  lanes: TimelineLane[];
  /** Periods in which the kit disturbed the provisioner on purpose (a restart), ms since the start. */
  disturbances: Array<{ label: string; from: number; to: number }>;
}

function tickKind(read: Exchange): TickKind {
  const status = read.response?.status;
  if (status === undefined || status >= 500) return 'transient';
  if (status === 404) return 'not-found';
  if (status !== 200) return 'other';
  const outcome = outcomeOf(read);
  if (outcome === 'in_progress') return 'in-progress';
  return outcome ?? 'other';
}

function tickLabel(read: Exchange): string {
  const who = read.probe ? `probe ${read.tag}` : 'poll';
  if (!read.response) return `#${read.seq} ${who}: no answer (${read.error?.kind ?? 'error'})`;
  const outcome = read.response.status === 200 ? outcomeOf(read) : undefined;
  return `#${read.seq} ${who}: ${read.response.status}${outcome ? ` ${outcome}` : ''}`;
}

/** Lays the transcript out as lanes: each accepted operation from its 202 to its end, with every read of it. */
export function buildTimeline(transcript: Transcript, maxOperationDurationMs: number): Timeline {
  const exchanges = transcript.exchanges;
  const origin: Millis = exchanges.reduce((first, e) => Math.min(first, e.sentAt), Number.POSITIVE_INFINITY);
  const since = (at: Millis): number => (Number.isFinite(origin) ? Math.max(0, at - origin) : 0);
  const ends = new Map<number, { at: Millis; reason: LaneEnd }>();
  for (const event of transcript.events) {
    if (event.type === 'poll-ended') ends.set(event.acceptedSeq, { at: event.at, reason: event.reason });
  }
  const lanes = operations(transcript).map((op): TimelineLane => {
    const start = since(op.acceptedAt);
    const end = ends.get(op.accepted.seq);
    const lastRead = op.reads.reduce((latest, read) => Math.max(latest, since(read.endedAt)), start);
    return {
      operationId: op.operationId,
      ...(op.changeSet !== undefined && { changeSet: op.changeSet }),
      kind: op.kind,
      suite: op.accepted.suite,
      start,
      end: end ? Math.max(start, since(end.at)) : lastRead,
      endReason: end?.reason ?? 'open',
      deadline: start + maxOperationDurationMs,
      ticks: op.reads.map((read) => ({ seq: read.seq, at: since(read.sentAt), kind: tickKind(read), probe: read.probe, label: tickLabel(read) })),
    };
  });
  const span = exchanges.reduce((latest, e) => Math.max(latest, since(e.endedAt)), 0);
  return { span, lanes, disturbances: restarts(transcript, since, span) };
}

/** Each restart of the provisioner, from the moment the kit began it to its end (or the end of the run). */
function restarts(transcript: Transcript, since: (at: Millis) => number, span: number): Timeline['disturbances'] {
  const periods: Timeline['disturbances'] = [];
  for (const event of transcript.events) {
    if (event.type === 'restart-started') periods.push({ label: `restart: ${event.describe}`, from: since(event.at), to: span });
    if (event.type === 'restart-ended' && periods.length > 0) {
      const open = periods[periods.length - 1]!;
      open.to = since(event.at);
      open.label += event.ok ? ' (done)' : ` (failed: ${event.message})`;
    }
  }
  return periods;
}
