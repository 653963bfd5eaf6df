import { afterEach, describe, expect, it, vi } from 'vitest';
import { BodyCapture } from '../../src/observe/capture.js';
import { JudgeFeed, QUIET_WAIT_MS } from '../../src/observe/judge-feed.js';
import type { Judging } from '../../src/observe/judge-worker-client.js';
import { ObservationFailures } from '../../src/observe/observation-failures.js';
import { ObservationNews } from '../../src/observe/observation-news.js';
import type { ProxiedExchange } from '../../src/observe/proxy.js';
import { ExchangeRecorder, type ObservedExchange } from '../../src/observe/recorder.js';
import { SecretMask } from '../../src/report/secret-mask.js';

/** A read of an operation as the proxy passed it on, answered 200. */
function proxiedRead(n: number): ProxiedExchange {
  const body = new BodyCapture(1024);
  body.add(Buffer.from('{"outcome":"in_progress","description":"working","results":[]}'));
  return {
    method: 'GET',
    url: `http://127.0.0.1:1/operations/op-${n}`,
    path: `/operations/op-${n}`,
    requestHeaders: {},
    requestBody: new BodyCapture(1024),
    sentAt: n,
    respondedAt: n + 1,
    endedAt: n + 1,
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: body,
  };
}

/** Judges that only keep what they were handed. */
function keepingJudges(): Judging & { handed: ObservedExchange[]; order: string[] } {
  const handed: ObservedExchange[] = [];
  const order: string[] = [];
  return {
    where: 'proxy thread',
    handed,
    order,
    add: (exchange) => {
      handed.push(exchange);
      order.push(`exchange ${exchange.operationId}`);
    },
    other: () => undefined,
    sweep: (at) => void order.push(`sweep at ${at}`),
    tally: () => Promise.reject(new Error('not asked for here')),
    waiting: 0,
    waitingBytes: 0,
    lost: 0,
    close: async () => undefined,
  };
}

function feedOf(judge: Judging, inFlight: () => number): JudgeFeed {
  return new JudgeFeed({
    judge,
    recorder: new ExchangeRecorder(1024),
    transcript: undefined,
    news: new ObservationNews(0, SecretMask.none(), () => 0, undefined),
    failures: new ObservationFailures(() => undefined),
    bounds: { exchanges: 100, bytes: 1_000_000 },
    inFlight,
  });
}

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the feed from the proxy to the judges', () => {
  it('hands over what a burst brought once no request is in flight, in the order it was taken', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    let inFlight = 3;
    const judge = keepingJudges();
    const feed = feedOf(judge, () => inFlight);
    feed.take(proxiedRead(1));
    feed.take(proxiedRead(2));
    await turns(3);
    await vi.advanceTimersByTimeAsync(5);
    expect(judge.handed).toHaveLength(0);
    inFlight = 0;
    await vi.advanceTimersByTimeAsync(1);
    await feed.everyExchangeTaken();
    expect(judge.handed.map((e) => e.operationId)).toEqual(['op-1', 'op-2']);
    expect(feed.answered).toBe(2);
  });

  it('waits no longer than its bound when requests are always in flight, and then hands over all it took without waiting again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const judge = keepingJudges();
    const feed = feedOf(judge, () => 1);
    feed.take(proxiedRead(1));
    feed.take(proxiedRead(2));
    await turns(3);
    await vi.advanceTimersByTimeAsync(QUIET_WAIT_MS - 2);
    expect(judge.handed).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(4);
    await turns(10);
    expect(judge.handed).toHaveLength(2);
  });

  it('checks deadlines after every exchange taken before the check, so that a final answer waiting its turn is judged first', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    let inFlight = 1;
    const judge = keepingJudges();
    const feed = feedOf(judge, () => inFlight);
    feed.take(proxiedRead(1));
    feed.sweep(500);
    feed.take(proxiedRead(2));
    await turns(3);
    await vi.advanceTimersByTimeAsync(5);
    expect(judge.order).toEqual([]);
    inFlight = 0;
    await vi.advanceTimersByTimeAsync(1);
    await feed.everyExchangeTaken();
    expect(judge.order).toEqual(['exchange op-1', 'sweep at 500', 'exchange op-2']);
  });

  it('hands over at once when nothing is in flight', async () => {
    const judge = keepingJudges();
    const feed = feedOf(judge, () => 0);
    feed.take(proxiedRead(1));
    await turns(5);
    expect(judge.handed).toHaveLength(1);
  });
});
