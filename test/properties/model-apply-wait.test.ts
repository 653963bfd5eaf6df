import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProvisionerClient } from '../../src/client/client.js';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import { Poller } from '../../src/poller/poller.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { outcomeOf } from '../../src/transcript/views.js';
import { CaseDriver } from '../../suites/properties/model/case-driver.js';
import { CaseStopped } from '../../suites/properties/model/violation.js';
import { FollowOperationCommand } from '../../suites/properties/model/commands/follow-operation.js';
import { SubmitCommand } from '../../suites/properties/model/commands/submit.js';
import { emptyModel } from '../../suites/properties/model/model.js';
import { settleOperations } from '../../suites/properties/model/settle.js';
import { operationWithinMaxDuration } from '../../src/rules/catalog/operation-lifecycle.js';
import type { PropertyContext } from '../../suites/properties/property.js';
import { context } from '../support/transcript-builder.js';
import { givenTimeLimit } from '../support/time-limit.js';

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
  const settings = { pollIntervalMs: 100, maxOperationDurationMs: 1000, answerTimeoutMs: 1000, concurrentReaders: 0, readAfterFinal: false };
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
    settings: { maxExamples: 1, timeLimit: givenTimeLimit(1000), allowApplyGenerated: false },
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

describe('the control plane keeps reading while a case waits on a lock', () => {
  /** Work that ends 150 ms after its 202: a provisioner that ends its work in well under the deadline. */
  const WORK_MS = 150;
  let quick: Server;
  let quickUrl: string;
  const acceptedAt = new Map<string, number>();

  beforeAll(async () => {
    quick = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const json = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (req.method === 'POST') {
          const operationId = randomUUID();
          acceptedAt.set(operationId, Date.now());
          return json(202, { operationId });
        }
        const id = decodeURIComponent((req.url ?? '').replace('/operations/', ''));
        const at = acceptedAt.get(id);
        if (at === undefined) return json(404, { error: 'unknown' });
        if (Date.now() - at < WORK_MS) return json(200, { outcome: 'in_progress', description: 'Working.', results: [] });
        return json(200, { outcome: 'succeeded', description: 'Done.', results: [{ id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'Done.' }] });
      });
    });
    await new Promise<void>((resolve) => quick.listen(0, '127.0.0.1', resolve));
    const address = quick.address();
    quickUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => quick.close(resolve));
  });

  it('reads a planned operation at the poll interval while its apply waits past the deadline, and no deadline rule fails', async () => {
    const client = new ProvisionerClient({ baseUrl: quickUrl, transcript: new Transcript() });
    // A deadline of 1 s, a lock held for 1.5 s: the case's next read of its plan would come after the deadline.
    const judgeContext = context({ pollIntervalMs: 100, maxOperationDuration: { ms: 1000, text: 'PT1S', source: 'flag' } });
    const stop = new AbortController();
    let lockFreed!: () => void;
    const lock = new Promise<void>((resolve) => (lockFreed = resolve));
    const propertyContext: PropertyContext = {
      client,
      poller: new Poller(client, { pollIntervalMs: 100, maxOperationDurationMs: 1000, answerTimeoutMs: 1000, concurrentReaders: 0, readAfterFinal: false }),
      changeSets: [SHOP_DB_SET],
      planOnly: false,
      changesPointer: '/changes',
      submitWaitMs: 1000,
      answerTimeoutMs: 1000,
      signal: new AbortController().signal,
      concluded: () => undefined,
      judgeContext,
      registerChangeSet: () => undefined,
      settings: { maxExamples: 1, timeLimit: givenTimeLimit(10_000), allowApplyGenerated: false },
      appliesMayStart: lock,
    };
    const driver = new CaseDriver(propertyContext, 'property/model-based-runs#1.1', stop.signal);
    const model = emptyModel();
    await new SubmitCommand('plan', SHOP_DB_SET, 2).run(model, driver);
    const plan = model.operations[0]!;
    const freed = setTimeout(lockFreed, 1500);
    await new SubmitCommand('apply', SHOP_DB_SET, 2).run(model, driver);
    clearTimeout(freed);
    await new FollowOperationCommand(1).run(model, driver);
    await settleOperations(driver, model);
    await driver.finish();

    const reads = client.transcript.exchanges.filter((e) => e.operationId === plan.id && e.request.method === 'GET');
    // The control plane's polls while the apply waited: the plan's work was seen to end long before its deadline.
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((read) => read.tag === 'poll' && !read.probe)).toBe(true);
    const firstFinal = reads.find((read) => outcomeOf(read) === 'succeeded');
    expect(firstFinal!.sentAt - plan.accepted.endedAt).toBeLessThan(1000);
    // The follow of the plan, after the lock, ends with what those reads saw and sends no read of its own.
    expect(driver.log.some((line) => line.startsWith('(while the case waited) the control plane read operation #1'))).toBe(true);
    expect(driver.log.some((line) => /follow operation \[1\] |follow operation #1 .*ended already/.test(line))).toBe(true);
    const judged = operationWithinMaxDuration.judge(client.transcript, judgeContext);
    expect(judged.outcome, judged.message).toBe('held');
    await client.close();
  });
});
