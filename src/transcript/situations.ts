import type { Exchange, Millis } from './exchange.js';
import type { Transcript } from './transcript.js';

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

/** A batch of a property's cases sent together: while it was in flight the provisioner held many of the kit's calls at once. */
export interface PropertyLoad {
  /** The batch, as its cases' suites name it without the case (`property/generated-plans#2`). */
  batch: string;
  startedAt: Millis;
  endedAt: Millis;
  /** Cases of the batch that sent a plan or apply. */
  cases: number;
}

/** A case of a batch of several: `property/NAME#BATCH.CASE`. */
const BATCH_CASE = /^(property\/[^#]+#\d+)\.\d+$/;

/** The batches of several property cases in the transcript, each from its first exchange to the end of its last. */
export function propertyLoads(transcript: Transcript): PropertyLoad[] {
  const loads = new Map<string, PropertyLoad & { posted: Set<string> }>();
  for (const exchange of transcript.exchanges) {
    const batch = BATCH_CASE.exec(exchange.suite)?.[1];
    if (batch === undefined) continue;
    const load = loads.get(batch);
    if (load) {
      load.startedAt = Math.min(load.startedAt, exchange.sentAt);
      load.endedAt = Math.max(load.endedAt, exchange.endedAt);
    } else {
      loads.set(batch, { batch, startedAt: exchange.sentAt, endedAt: exchange.endedAt, cases: 0, posted: new Set() });
    }
    if (isPlanOrApply(exchange)) loads.get(batch)!.posted.add(exchange.suite);
  }
  return [...loads.values()].filter((load) => load.posted.size > 1).map(({ posted, ...load }) => ({ ...load, cases: posted.size }));
}

/**
 * The batch of property cases a plan or apply was refused under: answered 429 or 503 (the statuses of a server
 * too busy now) while a batch of several cases was in flight. Such a refusal is load, which capacity.burst
 * judges, not an everyday answer; any other status or a failed connection may be a fault of the call itself.
 */
export function overloadedByPropertyLoad(exchange: Exchange, loads: readonly PropertyLoad[]): PropertyLoad | undefined {
  if (exchange.suite === SITUATION_SUITES.burst || !isPlanOrApply(exchange) || !isBusyAnswer(exchange)) return undefined;
  return loads.find((load) => overlaps(exchange, load));
}

/** Answered 429 or 503: the server says it is too busy now. */
export function isBusyAnswer(exchange: Exchange): boolean {
  return exchange.error === undefined && BUSY_STATUSES.includes(exchange.response?.status ?? 0);
}
