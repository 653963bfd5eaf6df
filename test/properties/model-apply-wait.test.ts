import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProvisionerClient } from '../../src/client/client.js';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import { Poller } from '../../src/poller/poller.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { CaseDriver } from '../../suites/properties/model/case-driver.js';
import { CaseStopped } from '../../suites/properties/model/violation.js';
import type { PropertyContext } from '../../suites/properties/property.js';
import { context } from '../support/transcript-builder.js';

const SHOP_DB_SET: LoadedChangeSet = { name: 'shop-db', file: 'shop-db.json', text: '{}', changes: [{ id: 'shop-db', environment: 'test' }], lockKey: 'shop' };

/** A provisioner that answers every call 200 at once and remembers what was posted. */
let server: Server;
let baseUrl: string;
const posted: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    posted.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function driverWith(appliesMayStart: Promise<unknown>, stop: AbortController, run = new AbortController()): { driver: CaseDriver; client: ProvisionerClient } {
  const client = new ProvisionerClient({ baseUrl, transcript: new Transcript() });
  const judgeContext = context();
  const settings = { pollIntervalMs: 100, maxOperationDurationMs: 1000, answerTimeoutMs: 1000, concurrentReaders: 0, probeAfterFinal: false };
  const propertyContext: PropertyContext = {
    client,
    poller: new Poller(client, settings, undefined, stop.signal),
    changeSets: [SHOP_DB_SET],
    planOnly: false,
    changesPointer: '/changes',
    submitWaitMs: 1000,
    answerTimeoutMs: 1000,
    signal: run.signal,
    concluded: () => undefined,
    judgeContext,
    registerChangeSet: () => undefined,
    settings: { maxExamples: 1, timeLimitMs: 1000, allowApplyGenerated: false },
    appliesMayStart,
  };
  return { driver: new CaseDriver(propertyContext, 'property/model-based-runs#1.1', stop.signal), client };
}

describe("a model-based case's applies beside the scenarios", () => {
  it('plans at once and holds an apply back until the applies before it are done', async () => {
    posted.length = 0;
    let scenariosDone!: () => void;
    const { driver, client } = driverWith(new Promise<void>((resolve) => (scenariosDone = resolve)), new AbortController());
    await driver.submit('plan', SHOP_DB_SET);
    const apply = driver.submit('apply', SHOP_DB_SET);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posted).toEqual(['/plan']);
    scenariosDone();
    expect((await apply).response?.status).toBe(200);
    expect(posted).toEqual(['/plan', '/apply']);
    await client.close();
  });

  it('stops waiting, and sends nothing, when the case is stopped', async () => {
    posted.length = 0;
    const stop = new AbortController();
    const { driver, client } = driverWith(new Promise(() => undefined), stop);
    const apply = driver.submit('apply', SHOP_DB_SET);
    stop.abort();
    await expect(apply).rejects.toBeInstanceOf(CaseStopped);
    expect(posted).toEqual([]);
    await client.close();
  });

  it('makes one signal for all the waits of a case, which the case or the run stopping still cuts short', async () => {
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      for (const stopping of ['case', 'run'] as const) {
        any.mockClear();
        const stop = new AbortController();
        const run = new AbortController();
        const { driver, client } = driverWith(Promise.resolve(), stop, run);
        await driver.wait(1);
        await driver.submit('apply', SHOP_DB_SET);
        await driver.wait(1);
        const long = driver.wait(60_000);
        (stopping === 'case' ? stop : run).abort();
        await long;
        expect(driver.stopped).toBe(true);
        expect(any).toHaveBeenCalledTimes(1);
        await client.close();
      }
    } finally {
      any.mockRestore();
    }
  });
});
