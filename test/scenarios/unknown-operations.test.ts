import { afterEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { ProvisionerClient } from '../../src/client/client.js';
import { Poller } from '../../src/poller/poller.js';
import { Transcript } from '../../src/transcript/transcript.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import type { SuiteContext } from '../../suites/suite.js';
import { unknownOperations } from '../../suites/scenarios/unknown-operations.js';
import { MALFORMED_IDS, malformedIds } from '../../suites/scenarios/malformed-ids.js';
import type { Suite } from '../../suites/suite.js';
import { serveHandlers, type MockProvisioner } from '../support/msw-server.js';

const POLL_INTERVAL_MS = 30;

/** Answers reads of unknown ids with `statuses[n]` for the n-th read of each id (the last one from then on). */
function answering(...statuses: number[]) {
  const readsById = new Map<string, number>();
  return [
    http.get('*/operations/:id', ({ params }) => {
      const id = String(params.id);
      const n = readsById.get(id) ?? 0;
      readsById.set(id, n + 1);
      const status = statuses[Math.min(n, statuses.length - 1)]!;
      return HttpResponse.json({ error: status === 404 ? 'unknown operation' : 'could not look up the operation' }, { status });
    }),
  ];
}

describe('scenario/unknown-operations', () => {
  let server: MockProvisioner | undefined;
  let client: ProvisionerClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  /** Runs the suite against the handlers; the reads it sent, grouped by id, each in the order sent. */
  async function run(handlers: ReturnType<typeof answering>, signal = new AbortController().signal, suite: Suite = unknownOperations): Promise<Exchange[][]> {
    server = await serveHandlers(handlers);
    const transcript = new Transcript();
    client = new ProvisionerClient({ baseUrl: server.url, transcript, connections: 4 });
    const poller = new Poller(client, { pollIntervalMs: POLL_INTERVAL_MS, maxOperationDurationMs: 5_000, answerTimeoutMs: 5_000, concurrentReaders: 0, readAfterFinal: false });
    const context: SuiteContext = {
      client,
      poller,
      changeSets: [],
      changesPointer: '/changes',
      planOnly: false,
      submitWaitMs: 5_000,
      answerTimeoutMs: 5_000,
      signal,
      concluded: () => undefined,
    };
    await suite.run(context);
    const byId = new Map<string, Exchange[]>();
    for (const read of [...transcript.exchanges].sort((a, b) => a.sentAt - b.sentAt)) byId.set(read.operationId!, [...(byId.get(read.operationId!) ?? []), read]);
    return [...byId.values()];
  }

  const statuses = (reads: Exchange[]): Array<number | undefined> => reads.map((read) => read.response?.status);

  it('reads each of two unknown ids twice, at once, when they answer 404', async () => {
    const ids = await run(answering(404));
    expect(ids.map(statuses)).toEqual([
      [404, 404],
      [404, 404],
    ]);
    expect(ids.flat().every((read) => read.tag === 'read-unknown' && read.probe)).toBe(true);
  });

  it('reads an id again one poll interval after a 5xx, until it has two answers', async () => {
    const ids = await run(answering(503, 404));
    expect(ids.map(statuses)).toEqual([
      [503, 404, 404],
      [503, 404, 404],
    ]);
    for (const [failed, next] of ids) expect(next!.sentAt - failed!.endedAt).toBeGreaterThanOrEqual(POLL_INTERVAL_MS * 0.9);
  });

  it('gives an id up after three 5xx in a row, each one poll interval after the last', async () => {
    const ids = await run(answering(500));
    expect(ids.map(statuses)).toEqual([
      [500, 500, 500],
      [500, 500, 500],
    ]);
    for (const reads of ids) {
      for (let i = 1; i < reads.length; i++) expect(reads[i]!.sentAt - reads[i - 1]!.endedAt).toBeGreaterThanOrEqual(POLL_INTERVAL_MS * 0.9);
    }
  });

  it('reads nothing more once the run is stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await run(answering(500), stop.signal)).toEqual([]);
  });
});

describe('scenario/malformed-ids', () => {
  let server: MockProvisioner | undefined;
  let client: ProvisionerClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  async function readsById(handlers: ReturnType<typeof answering>): Promise<Map<string, Array<number | undefined>>> {
    server = await serveHandlers(handlers);
    const transcript = new Transcript();
    client = new ProvisionerClient({ baseUrl: server.url, transcript, connections: 8 });
    const poller = new Poller(client, { pollIntervalMs: POLL_INTERVAL_MS, maxOperationDurationMs: 5_000, answerTimeoutMs: 5_000, concurrentReaders: 0, readAfterFinal: false });
    const signal = new AbortController().signal;
    await malformedIds.run({ client, poller, changeSets: [], changesPointer: '/changes', planOnly: false, submitWaitMs: 5_000, answerTimeoutMs: 5_000, signal, concluded: () => undefined });
    const byId = new Map<string, Array<number | undefined>>();
    for (const read of [...transcript.exchanges].sort((a, b) => a.sentAt - b.sentAt)) byId.set(read.operationId!, [...(byId.get(read.operationId!) ?? []), read.response?.status]);
    return byId;
  }

  it('reads each malformed id once when it is answered', async () => {
    const byId = await readsById(answering(404));
    expect([...byId.keys()].sort()).toEqual(MALFORMED_IDS.map((id) => id.raw).sort());
    expect([...byId.values()].every((statuses) => statuses.length === 1 && statuses[0] === 404)).toBe(true);
  });

  it('reads a malformed id again after a 5xx, and gives it up after three 5xx in a row', async () => {
    expect([...(await readsById(answering(503, 400))).values()].every((statuses) => JSON.stringify(statuses) === '[503,400]')).toBe(true);
    await client?.close();
    await server?.close();
    expect([...(await readsById(answering(500))).values()].every((statuses) => JSON.stringify(statuses) === '[500,500,500]')).toBe(true);
  });
});
