import type { Millis } from '../core/time.js';
import type { TransportError } from '../transcript/exchange.js';

/** What the watch needs of one proxied call: when it went and ended, and how. */
export interface CallEnd {
  sentAt: Millis;
  endedAt: Millis;
  status?: number;
  error?: TransportError;
}

/** The upstream stopped answering, or answers again. */
export type UpstreamChange =
  | { kind: 'upstream-down'; at: Millis; since: Millis; failedCalls: number; last: string }
  | { kind: 'upstream-up'; at: Millis; downForMs: number; failedCalls: number; status: number };

/**
 * The upstream is taken to have stopped answering when at least this many calls in a row failed (a transport
 * error, or 502, 503 or 504: what a gateway says when nothing answers behind it)…
 */
export const DOWN_AFTER_CALLS = 3;
/**
 * …and those failures span at least this long, from the first one's start to the latest one's end: a burst
 * of 503s in one busy second is load shedding, not an upstream gone, and one lost call is not worth a line.
 */
export const DOWN_AFTER_MS = 10_000;

const GATEWAY_FAILURES: ReadonlySet<number> = new Set([502, 503, 504]);

/** What a failed call got, in a few words. */
function failureOf(call: CallEnd): string | undefined {
  if (call.error) return `${call.error.kind}: ${call.error.message}`;
  if (call.status !== undefined && GATEWAY_FAILURES.has(call.status)) return `answered ${call.status}`;
  return undefined;
}

/**
 * Watches the calls the proxy passed, in the order they ended, and says when the upstream stopped answering
 * (see {@link DOWN_AFTER_CALLS} and {@link DOWN_AFTER_MS}) and when it answers again: the first call with any
 * other answer, 500 and 404 included, since the provisioner itself gave those. Its clock is the calls' own
 * times, so it is judged the same however fast it is fed.
 */
export class UpstreamWatch {
  private failing: { count: number; since: Millis; latest: Millis } | undefined;
  private down = false;

  /** Takes one call that ended; the change it makes, if any. */
  ended(call: CallEnd): UpstreamChange | undefined {
    const failure = failureOf(call);
    if (failure === undefined) {
      const was = this.failing;
      this.failing = undefined;
      if (!this.down || !was) return undefined;
      this.down = false;
      return { kind: 'upstream-up', at: call.endedAt, downForMs: Math.max(0, call.endedAt - was.since), failedCalls: was.count, status: call.status ?? 0 };
    }
    const failing = this.failing ?? { count: 0, since: call.sentAt, latest: call.endedAt };
    failing.count += 1;
    failing.since = Math.min(failing.since, call.sentAt);
    failing.latest = Math.max(failing.latest, call.endedAt);
    this.failing = failing;
    if (this.down || failing.count < DOWN_AFTER_CALLS || failing.latest - failing.since < DOWN_AFTER_MS) return undefined;
    this.down = true;
    return { kind: 'upstream-down', at: failing.latest, since: failing.since, failedCalls: failing.count, last: failure };
  }

  /** Whether the upstream is taken to have stopped answering, and since when. */
  get state(): { answering: true } | { answering: false; since: Millis; failedCalls: number } {
    return this.down && this.failing ? { answering: false, since: this.failing.since, failedCalls: this.failing.count } : { answering: true };
  }
}
