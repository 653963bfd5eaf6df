import type { Exchange, Millis } from './exchange.js';
import type { Transcript } from './transcript.js';
import { operations } from './views.js';

/**
 * The suites that drive a situation a rule is about. Suites tag their exchanges with these names, and
 * the judges of those rules find the situation by them, in a live run and in a saved transcript alike.
 */
export const SITUATION_SUITES = {
  /** The same apply sent again after the first has ended. */
  repeatApply: 'scenario/repeat-apply',
  /** The same apply sent again while the first is still in progress. */
  repeatWhileRunning: 'scenario/repeat-while-running',
  /** Many plan (and apply) calls at once. */
  burst: 'scenario/burst',
  /** Operations accepted just before the provisioner is restarted. */
  restart: 'scenario/restart',
  /** Finished operations and unknown ids read again once the other suites are done. */
  lateReads: 'scenario/late-reads',
} as const;

/** When the kit restarted the provisioner: from the start of the restart to its end (open while it never ended). */
export interface RestartWindow {
  startedAt: Millis;
  endedAt: Millis;
  /** The restart did its job; false: it failed or timed out (a kit error). */
  ok: boolean;
  describe: string;
  message?: string;
}

/** The restarts of a run, in order, each start paired with the end that follows it. */
export function restartWindows(transcript: Transcript): RestartWindow[] {
  const windows: RestartWindow[] = [];
  for (const event of transcript.events) {
    if (event.type === 'restart-started') {
      windows.push({ startedAt: event.at, endedAt: Number.POSITIVE_INFINITY, ok: false, describe: event.describe });
    } else if (event.type === 'restart-ended') {
      const open = windows.findLast((window) => window.endedAt === Number.POSITIVE_INFINITY);
      if (open) Object.assign(open, { endedAt: event.at, ok: event.ok, message: event.message });
    }
  }
  return windows;
}

/** The exchange was in flight at some moment of the window. */
export function overlaps(exchange: Exchange, window: { startedAt: Millis; endedAt: Millis }): boolean {
  return exchange.sentAt <= window.endedAt && exchange.endedAt >= window.startedAt;
}

/** The time the provisioner was under the burst, and what it answered away from it. */
export interface BurstWindow {
  startedAt: Millis;
  endedAt: Millis;
  /**
   * The kinds of call (`plan`, `apply`) the provisioner answered 200 or 202 at least once in the run. A kind it
   * never answers so, refused with a 500 or a reset, fails without load too: the everyday rules judge it.
   */
  answeredKinds: ReadonlySet<string>;
}

/** From the first exchange of the burst suite to the end of its last (its operations' reads included): the time the provisioner was under the burst. */
export function burstWindow(transcript: Transcript): BurstWindow | undefined {
  // A loop, not Math.min(...times): a spread of a hundred thousand reads overflows the stack.
  let window: { startedAt: Millis; endedAt: Millis } | undefined;
  const answeredKinds = new Set<string>();
  for (const exchange of transcript.exchanges) {
    if (isPlanOrApply(exchange) && (exchange.response?.status === 200 || exchange.response?.status === 202)) answeredKinds.add(exchange.tag);
    if (exchange.suite !== SITUATION_SUITES.burst) continue;
    window = window
      ? { startedAt: Math.min(window.startedAt, exchange.sentAt), endedAt: Math.max(window.endedAt, exchange.endedAt) }
      : { startedAt: exchange.sentAt, endedAt: exchange.endedAt };
  }
  return window && { ...window, answeredKinds };
}

function isPlanOrApply(exchange: Exchange): boolean {
  return exchange.tag === 'plan' || exchange.tag === 'apply';
}

/** An answer that says the provisioner is overloaded: 429, a 5xx, or a connection that failed (a call the kit itself cut short is none). */
export function isOverloadAnswer(exchange: Exchange): boolean {
  if (exchange.error) return exchange.error.kind !== 'stopped';
  // Stryker disable next-line OptionalChaining: an exchange without a transport error has a response
  const status = exchange.response?.status ?? 0;
  return status === 429 || status >= 500;
}

/** The statuses by which a server says it is too busy now; any other overload answer may be a plain fault too. */
const BUSY_STATUSES = [429, 503];

/**
 * A plan or apply of another suite, in flight while the burst was, that was answered as an overloaded
 * provisioner answers: 429 or 503, or another 5xx or a failed connection for a kind of call the provisioner
 * does answer 200 or 202 (else it fails that way without load too).
 */
export function overloadedByBurst(exchange: Exchange, window: BurstWindow | undefined): boolean {
  if (!window || exchange.suite === SITUATION_SUITES.burst || !isPlanOrApply(exchange)) return false;
  if (!overlaps(exchange, window) || !isOverloadAnswer(exchange)) return false;
  return BUSY_STATUSES.includes(exchange.response?.status ?? 0) || window.answeredKinds.has(exchange.tag);
}

/**
 * The kit's own work at every moment of a run: each plan or apply from its send until its answer, or until its
 * operation's first final answer (its last read, when none came). A provisioner holds that much of the kit's
 * work, whatever else it does.
 */
export class KitLoad {
  private readonly starts: Millis[];
  private readonly ends: Millis[];
  private readonly counted: ReadonlySet<number>;
  /** The kinds of call (`plan`, `apply`) the provisioner answered 200 or 202 at least once in the run. */
  readonly answeredKinds: ReadonlySet<string>;

  constructor(transcript: Transcript) {
    const spans = new Map<number, { startedAt: Millis; endedAt: Millis }>();
    const answered = new Set<string>();
    for (const exchange of transcript.exchanges) {
      if (!isPlanOrApply(exchange)) continue;
      spans.set(exchange.seq, { startedAt: exchange.sentAt, endedAt: exchange.endedAt });
      if (exchange.response?.status === 200 || exchange.response?.status === 202) answered.add(exchange.tag);
    }
    for (const op of operations(transcript)) {
      const span = spans.get(op.accepted.seq);
      const last = op.finalReads[0] ?? op.reads.at(-1);
      if (span && last) span.endedAt = Math.max(span.endedAt, last.endedAt);
    }
    this.starts = [...spans.values()].map((span) => span.startedAt).sort((a, b) => a - b);
    this.ends = [...spans.values()].map((span) => span.endedAt).sort((a, b) => a - b);
    this.answeredKinds = answered;
    this.counted = new Set(spans.keys());
  }

  /** How many of the kit's plans, applies and operations were in flight at some moment of the exchange, not counting itself. */
  besides(exchange: Exchange): number {
    // Spans that began by its end, less those that ended before it began (they began before too).
    const began = countAtMost(this.starts, exchange.endedAt);
    const over = countBelow(this.ends, exchange.sentAt);
    return Math.max(0, began - over - (this.counted.has(exchange.seq) ? 1 : 0));
  }
}

function countAtMost(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function countBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A plan or apply (not the burst's) answered 429 or 503 while the provisioner held other work of the kit: the
 * provisioner said it was too busy, where the contract has a full provisioner run the call at once. That is
 * load, which capacity.burst judges, not an everyday answer: the kit's own suites and property batches run many
 * calls together. A kind of call never answered 200 or 202 in the run is refused without load too, and a 429
 * or 503 to a call the kit sent alone is no load: the everyday rules judge those.
 */
export function overloadedByKit(exchange: Exchange, load: KitLoad): boolean {
  if (exchange.suite === SITUATION_SUITES.burst || !isPlanOrApply(exchange) || !isBusyAnswer(exchange)) return false;
  return load.answeredKinds.has(exchange.tag) && load.besides(exchange) > 0;
}

/** Answered 429 or 503: the server says it is too busy now. */
export function isBusyAnswer(exchange: Exchange): boolean {
  return exchange.error === undefined && BUSY_STATUSES.includes(exchange.response?.status ?? 0);
}
