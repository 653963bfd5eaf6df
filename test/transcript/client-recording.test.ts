import { describe, expect, it, vi } from 'vitest';
import type { ProvisionerClient } from '../../src/client/client.js';
import { BodyStore } from '../../src/transcript/body-store.js';
import { LongReadTurns } from '../../src/client/long-read-turns.js';
import { useLoopbackClient } from '../support/loopback-client.js';

const IN_PROGRESS = '{"outcome":"in_progress","description":"copying","results":[]}';

describe('the client records', () => {
  const loopback = useLoopbackClient();

  function serve(answer: (path: string) => { status: number; body: string; waitMs?: number }): Promise<ProvisionerClient> {
    return loopback(
      (req, res) => {
        req.resume();
        const { status, body, waitMs } = answer(req.url ?? '');
        res.sendDate = false;
        setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(body), waitMs ?? 0);
      },
      { headers: { 'X-Team': 'a' } },
    );
  }

  const read = (c: ProvisionerClient, path: string, timeoutMs = 5_000, signal?: AbortSignal) =>
    c.send({ suite: 'test', tag: 'poll', probe: false, method: 'GET', path, operationId: path.split('/').pop(), timeoutMs, signal });

  it('one request and one response for reads that sent and got the same, each exchange still its own', async () => {
    const c = await serve((path) => ({ status: 200, body: path.endsWith('/b') ? '{"outcome":"succeeded","description":"d","results":[]}' : IN_PROGRESS }));
    const first = await read(c, '/operations/a');
    const again = await read(c, '/operations/a');
    const other = await read(c, '/operations/b');
    expect(again).not.toBe(first);
    expect([first.seq, again.seq, other.seq]).toEqual([1, 2, 3]);
    expect(again.request).toBe(first.request);
    expect(again.response).toBe(first.response);
    expect(other.request).not.toBe(first.request);
    expect(other.request.headers).toBe(first.request.headers);
    expect(other.response).not.toBe(first.response);
    expect(first.request).toEqual({ method: 'GET', url: expect.stringMatching(/\/operations\/a$/), headers: { accept: 'application/json', 'x-team': 'a' }, body: undefined });
    expect(first.response).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, body: IN_PROGRESS, json: { ok: true } });
    expect(Object.isFrozen(first.request) && Object.isFrozen(first.response)).toBe(true);
  });

  it('a POST with its own body and content type', async () => {
    const c = await serve(() => ({ status: 400, body: '{}' }));
    const post = await c.send({ suite: 'test', tag: 'plan', probe: false, method: 'POST', path: '/plan', body: '{"changes":[]}', timeoutMs: 5_000 });
    expect(post.request).toEqual({ method: 'POST', url: expect.stringMatching(/\/plan$/), headers: { accept: 'application/json', 'x-team': 'a', 'content-type': 'application/json' }, body: '{"changes":[]}' });
  });

  it('a read slower than its time as a timeout, and one the run stopped as stopped', async () => {
    const c = await serve(() => ({ status: 200, body: IN_PROGRESS, waitMs: 300 }));
    const slow = await read(c, '/operations/a', 50);
    expect(slow.error).toEqual({ kind: 'timeout', message: 'no complete answer within 50 ms' });
    expect(slow.response).toBeUndefined();
    const stop = new AbortController();
    const stopped = read(c, '/operations/a', 5_000, stop.signal);
    setTimeout(() => stop.abort(), 20);
    expect((await stopped).error?.kind).toBe('stopped');
    const before = new AbortController();
    before.abort();
    expect((await read(c, '/operations/a', 5_000, before.signal)).error?.kind).toBe('stopped');
  });
});

describe('long bodies read a few at a time', () => {
  const loopback = useLoopbackClient();

  it('a read that waits for its turn to hold a long body is judged on the body, its wait not counted as the provisioner\'s time', async () => {
    const turns = new LongReadTurns(1);
    const ends: Array<() => void> = [];
    const long = `{"outcome":"in_progress","description":"${'x'.repeat(100 * 1024)}","results":[]}`;
    const c = await loopback(
      (req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json' });
        // Chunked, its length unknown ahead: the first body ends when the test says so, the second at once.
        res.write(long.slice(0, 80 * 1024));
        const end = (): void => void res.end(long.slice(80 * 1024));
        if (req.url?.endsWith('/first')) ends.push(end);
        else end();
      },
      { longReadTurns: turns },
    );
    const send = (path: string, timeoutMs: number) => c.send({ suite: 'test', tag: 'poll', probe: false, method: 'GET', path, timeoutMs });
    const first = send('/operations/first', 10_000);
    await vi.waitFor(() => expect(turns.held).toBe(1));
    const second = send('/operations/second', 300);
    await vi.waitFor(() => expect(turns.queued).toBe(1));
    // Longer than the second read's limit: only the kit's own queue holds it.
    await new Promise((resolve) => setTimeout(resolve, 600));
    ends.forEach((end) => end());
    const [a, b] = await Promise.all([first, second]);
    for (const exchange of [a, b]) {
      expect(exchange.error).toBeUndefined();
      expect(exchange.response).toMatchObject({ status: 200, bodyBytes: Buffer.byteLength(long), truncated: false });
    }
    expect([turns.held, turns.queued]).toEqual([0, 0]);
  });
});

describe('the body store', () => {
  it('knows a body received in chunks as the same body received whole', () => {
    const store = new BodyStore();
    const whole = store.keep(Buffer.from(IN_PROGRESS), false);
    const text = Buffer.from(IN_PROGRESS);
    expect(store.keepChunks([text.subarray(0, 7), text.subarray(7, 30), text.subarray(30)], false)).toBe(whole);
    const fresh = new BodyStore().keepChunks([text.subarray(0, 7), text.subarray(7)], false);
    expect(fresh).toEqual(whole);
  });
});
