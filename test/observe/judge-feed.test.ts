import { describe, expect, it } from 'vitest';
import { BodyCapture } from '../../src/observe/capture.js';
import { JudgeFeed } from '../../src/observe/judge-feed.js';
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

function feedOf(judge: Judging): JudgeFeed {
  return new JudgeFeed({
    judge,
    recorder: new ExchangeRecorder(1024),
    transcript: undefined,
    news: new ObservationNews(0, SecretMask.none(), () => 0, undefined),
    failures: new ObservationFailures(() => undefined),
    bounds: { exchanges: 100, bytes: 1_000_000 },
  });
}

describe('the feed from the proxy to the judges', () => {
  it('hands exchanges over in the order it took them, and checks deadlines after every exchange taken before the check', async () => {
    const judge = keepingJudges();
    const feed = feedOf(judge);
    feed.take(proxiedRead(1));
    feed.sweep(500);
    feed.take(proxiedRead(2));
    // Each exchange is recorded behind the event loop's I/O: nothing reached the judges yet, the check neither.
    expect(judge.order).toEqual([]);
    await feed.everyExchangeTaken();
    // A final answer still waiting its turn is judged before the deadline check that came after it.
    expect(judge.order).toEqual(['exchange op-1', 'sweep at 500', 'exchange op-2']);
    expect(feed.answered).toBe(2);
  });
});
