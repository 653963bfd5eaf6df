import type { Millis } from '../core/time.js';
import type { ObservationNews } from './observation-news.js';
import type { ObservationFailures } from './observation-failures.js';
import type { Judging } from './judge-worker-client.js';
import { JudgeBacklog, observedBytes, proxiedBytes, type BacklogBound, type BacklogBounds } from './judge-backlog.js';
import type { ProxiedExchange } from './proxy.js';
import type { ExchangeRecorder, SeenExchange } from './recorder.js';
import type { TranscriptStream } from './transcript-stream.js';

/** What the feed hands exchanges to, and where it tells what it could not hand over. */
export interface JudgeFeedParts {
  judge: Judging;
  recorder: ExchangeRecorder;
  transcript: TranscriptStream | undefined;
  news: ObservationNews;
  failures: ObservationFailures;
  bounds: BacklogBounds;
}

/**
 * Takes each exchange the proxy passed on and hands it to the judges, one after the other in the order the answers
 * ended (a 202 is judged before the reads of its id), each behind the event loop's I/O so that judging never holds
 * a request up; deadline checks take their turn in the same queue. Past the backlog's bounds an exchange is counted,
 * not judged.
 */
export class JudgeFeed {
  /** Exchanges the judges never got: refused while too many waited, or not recorded. */
  notHanded = 0;
  /** Exchanges that got an answer from upstream. */
  answered = 0;
  readonly backlog: JudgeBacklog;
  private queue: Promise<void> = Promise.resolve();
  // Exchanges taken and not handed to the judges yet, and the bytes they hold; the judges say what waits with them.
  private waiting = 0;
  private waitingBytes = 0;
  private readonly boundsReached = new Set<BacklogBound>();

  constructor(private readonly parts: JudgeFeedParts) {
    this.backlog = new JudgeBacklog(parts.bounds);
  }

  /** The proxy's hand-over of one exchange: never throws, never waits. */
  readonly take = (proxied: ProxiedExchange): void => {
    const { news, judge } = this.parts;
    try {
      news.passed(proxied);
    } catch {
      // what is told while observing never keeps an exchange from its judges
    }
    const bytes = proxiedBytes(proxied);
    const refused = this.backlog.refuse({ exchanges: this.waiting + judge.waiting, bytes: this.waitingBytes + judge.waitingBytes }, bytes);
    if (refused !== undefined) {
      this.lost();
      // Each bound is told when it is first reached; the end's conclusions count every exchange it refused.
      const first = !this.boundsReached.has(refused);
      this.boundsReached.add(refused);
      this.parts.failures.of('the judges fell behind the traffic', true, first)(new Error(this.backlog.reason(refused)));
      return;
    }
    this.waiting += 1;
    this.waitingBytes += bytes;
    this.queue = this.queue
      .then(() => this.handOver(proxied))
      .catch((error: unknown) => this.notRecorded(error))
      .finally(() => {
        this.waiting -= 1;
        this.waitingBytes -= bytes;
      });
  };

  /**
   * Checks the operations against their deadline at `at`, once every exchange taken before it was handed over:
   * a final answer still waiting its turn is never taken for a deadline missed.
   */
  sweep(at: Millis): void {
    const { judge, transcript, failures } = this.parts;
    this.queue = this.queue.then(() => {
      try {
        judge.sweep(at);
        transcript?.sweep(at);
      } catch (error) {
        failures.of('operations could not be checked against their deadline', true)(error);
      }
    });
  }

  /** An exchange the proxy could not even record. */
  readonly notRecorded = (error: unknown): void => {
    this.lost();
    this.parts.failures.of('an exchange could not be recorded', true)(error);
  };

  /**
   * Settles once every exchange taken was handed over. The proxy hands an exchange over a turn of the loop after its
   * answer ended, which may be after it closed: the queue is waited for until a turn passes with nothing joining it.
   */
  async everyExchangeTaken(): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const last = this.queue;
      await last;
      if (last === this.queue) return;
    }
  }

  private async handOver(proxied: ProxiedExchange): Promise<void> {
    const { recorder, transcript, judge } = this.parts;
    // Each judgement waits its turn behind the event loop's I/O: a backlog of judging never holds a request up.
    await new Promise((resolve) => setImmediate(resolve));
    if (proxied.status !== undefined) this.answered += 1;
    const recorded = await recorder.record(seenOf(proxied));
    if (recorded) {
      transcript?.exchange(recorded);
      judge.add(recorded, observedBytes(recorded));
    } else {
      transcript?.other(proxied.status !== undefined);
      judge.other();
    }
  }

  private lost(): void {
    this.notHanded += 1;
    this.parts.transcript?.unjudged();
  }
}

/** An exchange as the proxy passed it on, as the recorder takes it. */
function seenOf(proxied: ProxiedExchange): SeenExchange {
  const body = proxied.requestBody;
  return {
    method: proxied.method,
    url: proxied.url,
    path: proxied.path,
    requestHeaders: proxied.requestHeaders,
    ...(body.bytes > 0 && { requestBody: body.text() }),
    sentAt: proxied.sentAt,
    ...(proxied.respondedAt !== undefined && { respondedAt: proxied.respondedAt }),
    endedAt: proxied.endedAt,
    // An answer cut off midway is a transport error, as the kit's own client records it: never both.
    ...(proxied.status !== undefined &&
      proxied.responseBody &&
      !proxied.error && {
        response: { status: proxied.status, headers: proxied.responseHeaders ?? {}, chunks: proxied.responseBody.chunks, truncated: proxied.responseBody.truncated },
      }),
    ...(proxied.error && { error: proxied.error }),
  };
}
