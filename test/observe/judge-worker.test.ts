import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceProvisioner, type RunningReference } from '../../src/reference/index.js';
import { resolveObserveConfig } from '../../src/config/observe-config.js';
import { observedContext, startObservation, type ObserveIo } from '../../src/observe/observe.js';
import { startJudging } from '../../src/observe/judge-worker-client.js';
import { verifyTranscriptFile } from '../../src/observe/verify-transcript.js';
import { maxOperationDurationField } from '../../src/config/fields.js';
import { IN_PROGRESS, T0, TranscriptBuilder } from '../support/transcript-builder.js';
import type { RunOutcome } from '../../src/runner/outcome.js';
import { ROOT } from '../e2e/run-cli.js';

type ObserveModule = typeof import('../../src/observe/observe.js');
type ConfigModule = typeof import('../../src/config/observe-config.js');

const CHANGE_SET = readFileSync(join(ROOT, 'fixtures', 'change-sets', 'postgres.json'), 'utf8');
const CHANGES = (JSON.parse(CHANGE_SET) as { changes: Array<{ id: string; environment: string }> }).changes;
const fixture = (name: string): URL => pathToFileURL(join(ROOT, 'test', 'support', 'judge-workers', name));

/** A succeeded final answer with one result per change. */
const SUCCEEDED = {
  outcome: 'succeeded',
  description: `Handled ${CHANGES.length} changes.`,
  results: CHANGES.map((change) => ({ id: change.id, environment: change.environment, outcome: 'succeeded', description: `Handled ${change.id}.` })),
};

/**
 * A provisioner scripted by count, not by time, so that the traffic is the same every time: plans answered at
 * once, applies accepted, the first read of an operation in progress and the next ones final.
 */
function scriptedProvisioner(): Server {
  const reads = new Map<string, number>();
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = (status: number, value: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.url === '/plan') return answer(200, SUCCEEDED);
      if (req.url === '/apply') return answer(202, { operationId: randomUUID() });
      const id = String(req.url).split('/').pop()!;
      const count = (reads.get(id) ?? 0) + 1;
      reads.set(id, count);
      answer(200, count === 1 ? IN_PROGRESS : SUCCEEDED);
    });
  });
}

/** One reference provisioner for the file, answering every call at once. */
let reference: RunningReference;
let scripted: Server;
let scriptedUrl: string;
beforeAll(async () => {
  reference = await startReferenceProvisioner({ mode: 'sync' });
  scripted = scriptedProvisioner().listen(0, '127.0.0.1');
  await once(scripted, 'listening');
  scriptedUrl = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await reference.close();
  scripted.closeAllConnections();
  await new Promise((resolve) => scripted.close(resolve));
});

async function post(base: string, kind: 'plan' | 'apply'): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${base}/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHANGE_SET });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** The control plane's traffic: a plan answered at once, then an apply read until its final answer. */
async function drive(base: string): Promise<void> {
  expect((await post(base, 'plan')).status).toBe(200);
  const accepted = await post(base, 'apply');
  expect(accepted.status).toBe(202);
  for (;;) {
    const read = await fetch(`${base}/operations/${String(accepted.body.operationId)}`);
    if (((await read.json()) as { outcome?: string }).outcome !== 'in_progress') return;
  }
}

function statuses(outcome: RunOutcome): Record<string, string> {
  return Object.fromEntries(outcome.rules.map((rule) => [rule.id, rule.status]));
}

describe('the judges on a worker thread', () => {
  it('built (dist), judge the traffic off the proxy thread as they judge it on it; reports come from their tally', async () => {
    // The built observer, as an installed package runs it: its worker file sits beside it.
    const built = (await import(pathToFileURL(join(ROOT, 'dist', 'src', 'observe', 'observe.js')).href)) as ObserveModule;
    const builtConfig = (await import(pathToFileURL(join(ROOT, 'dist', 'src', 'config', 'observe-config.js')).href)) as ConfigModule;
    const dir = mkdtempSync(join(tmpdir(), 'pc-judge-worker-'));
    const observeWith = async (io: ObserveIo, report?: string): Promise<RunOutcome> => {
      const outputs = report === undefined ? {} : { report, reportEvery: 'PT0.05S', recordChangeSets: join(dir, 'change-sets') };
      const config = await builtConfig.resolveObserveConfig({ upstream: scriptedUrl, listen: '127.0.0.1:0', maxOperationDuration: 'PT20S', ...outputs });
      const observation = await built.startObservation(config, io);
      try {
        await drive(observation.url);
        // Asked while running, the outcome comes from the judges' tally of what was handed to them.
        await expect.poll(async () => (await observation.outcome()).observation!.traffic.byTag).toMatchObject({ plan: 1, apply: 1 });
        return await observation.stop();
      } finally {
        await observation.stop();
      }
    };
    const report = join(dir, 'report.json');
    const onWorker = await observeWith({}, report);
    const onProxyThread = await observeWith({ judgeWorker: false });
    expect(onWorker.conclusions[0]).toContain('the judges ran on the worker thread');
    expect(onProxyThread.conclusions[0]).toContain('the judges ran on the proxy thread');
    expect(onWorker.verdict).toBe('pass');
    expect(onWorker.observation!.traffic.operations.ended.final).toBe(1);
    expect(statuses(onWorker)).toEqual(statuses(onProxyThread));
    expect(statuses(onWorker)['final.results-match-changes']).toBe('pass');
    expect(statuses(onWorker)['operation.in-progress-results-empty']).toBe('pass');
    expect(onWorker.observation!.rules['answer.status']).toEqual(onProxyThread.observation!.rules['answer.status']);
    // The report file came from the worker's tally too.
    const written = JSON.parse(readFileSync(report, 'utf8')) as { conclusions: string[]; verdict: string };
    expect(written.conclusions[0]).toContain('the judges ran on the worker thread');
    expect(written.verdict).toBe('pass');
    // The worker sends each change set back the first time it sees it, and it is kept beside the proxy.
    expect(readdirSync(join(dir, 'change-sets'))).toEqual([expect.stringMatching(/^managed-resource-postgres-[0-9a-f]{12}\.json$/)]);
  });

  it('a worker that dies fails, delays and alters no request; the observation ends in a kit error that no rule passes', async () => {
    const config = await resolveObserveConfig({ upstream: reference.url, listen: '127.0.0.1:0' });
    const logged: string[] = [];
    const observation = await startObservation(config, { judgeWorker: fixture('dies.mjs'), log: (line) => logged.push(line) });
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await post(observation.url, 'plan');
        expect(answer.status).toBe(200);
        expect(answer.body.outcome).toBe('succeeded');
      }
      // Still proxying once the worker is known to be dead.
      await expect.poll(() => logged.some((line) => line.includes("the judges' worker thread stopped"))).toBe(true);
      expect((await post(observation.url, 'plan')).status).toBe(200);
    } finally {
      const outcome = await observation.stop();
      expect(outcome.verdict).toBe('error');
      expect(outcome.exitCode).toBe(2);
      expect(outcome.conclusions[0]).toMatch(/^kit error KIT_INTERNAL: 4 exchanges of the traffic not judged \(the first cause: the judges' worker thread stopped: an uncaught error: the judge worker broke; \d exchanges? handed to it not judged/);
      expect(outcome.rules.filter((rule) => rule.status === 'pass')).toEqual([]);
      expect(outcome.rules.find((rule) => rule.id === 'answer.status')!.message).toMatch(/^not judged on all of the traffic \(4 exchanges of the traffic not judged\)/);
    }
  });

  it('a worker that falls behind gets at most the queue allowed; the rest is counted, and no rule holds on traffic it did not see', async () => {
    const transcript = join(mkdtempSync(join(tmpdir(), 'pc-behind-')), 'observed.jsonl');
    const config = await resolveObserveConfig({ upstream: reference.url, listen: '127.0.0.1:0', transcript });
    const observation = await startObservation(config, { judgeWorker: fixture('behind.mjs'), mostWaiting: 2 });
    try {
      for (let i = 0; i < 5; i++) expect((await post(observation.url, 'plan')).status).toBe(200);
    } finally {
      const outcome = await observation.stop();
      expect(outcome.verdict).toBe('error');
      expect(outcome.conclusions[0]).toMatch(/^kit error KIT_INTERNAL: 3 exchanges of the traffic not judged \(the first cause: the judges fell behind the traffic: 2 exchanges were waiting/);
      // Small exchanges: the count refused them, never the bytes.
      expect(outcome.conclusions).toContain('3 exchanges passed on and not judged, the judges having fallen behind the traffic: 3 when 2 exchanges were waiting, the most that may wait');
      // The two judged held; they are not said to hold on all five.
      expect(outcome.observation!.rules['answer.status']).toEqual({ exercised: 2, held: 2, broken: 0 });
      const status = outcome.rules.find((rule) => rule.id === 'answer.status')!;
      expect(status.status).toBe('not-exercised');
      expect(status.message).toMatch(/^not judged on all of the traffic \(3 exchanges of the traffic not judged\); on the traffic judged: held in all 2 situations observed/);
      expect(outcome.rules.filter((rule) => rule.status === 'pass')).toEqual([]);
      expect(outcome.observation!.recordingErrors?.count).toBe(3);
      // The transcript marks what was never judged in its place: judged again, it holds no rule either.
      expect(readFileSync(transcript, 'utf8')).toMatch(/^\{"unjudged":3\}$/m);
      const again = await verifyTranscriptFile(transcript, {});
      expect(again.verdict).toBe('error');
      expect(again.rules.filter((rule) => rule.status === 'pass')).toEqual([]);
      expect(again.conclusions).toContain(
        "3 exchanges were passed on but never judged nor written while observing (the observer's judges had fallen behind the traffic, or recording failed): the observer's report said so too",
      );
    }
  });

  it('a worker that falls behind on large exchanges gets what fits the byte bound; the rest is counted, said once on stderr and in the report', async () => {
    const config = await resolveObserveConfig({ upstream: reference.url, listen: '127.0.0.1:0' });
    const logged: string[] = [];
    // Each plan with its change set and answer holds more than half of 1 KiB: one waits, the next does not fit.
    const observation = await startObservation(config, { judgeWorker: fixture('behind.mjs'), mostWaitingBytes: 1024, log: (line) => logged.push(line) });
    try {
      for (let i = 0; i < 3; i++) expect((await post(observation.url, 'plan')).status).toBe(200);
    } finally {
      const outcome = await observation.stop();
      expect(outcome.verdict).toBe('error');
      expect(outcome.conclusions[0]).toMatch(
        /^kit error KIT_INTERNAL: 2 exchanges of the traffic not judged \(the first cause: the judges fell behind the traffic: the exchanges waiting to be judged held 1 KiB, the most they may; further ones were not judged\)/,
      );
      expect(outcome.conclusions).toContain(
        '2 exchanges passed on and not judged, the judges having fallen behind the traffic: 2 when those waiting held 1 KiB, the most they may hold (large bodies fill it with fewer exchanges)',
      );
      expect(logged.filter((line) => line.includes('fell behind'))).toEqual([
        'observe: the judges fell behind the traffic: the exchanges waiting to be judged held 1 KiB, the most they may; further ones were not judged (the traffic is not affected)',
      ]);
      expect(outcome.observation!.rules['answer.status']).toEqual({ exercised: 1, held: 1, broken: 0 });
      expect(outcome.rules.filter((rule) => rule.status === 'pass')).toEqual([]);
    }
  });

  it('built, count the bytes waiting with them until they say they took those exchanges', async () => {
    const judging = startJudging(
      { context: observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, T0), selection: {}, changesPointer: '/changes' },
      { onFailure: (what, error) => expect.fail(`${what}: ${(error as Error).message}`) },
      pathToFileURL(join(ROOT, 'dist', 'src', 'observe', 'judge-worker.js')),
    );
    try {
      expect(judging.where).toBe('worker thread');
      const builder = new TranscriptBuilder();
      judging.add(builder.post('plan', { status: 200, body: {} }), 100);
      judging.other();
      judging.add(builder.post('plan', { status: 200, body: {} }), 50);
      expect([judging.waiting, judging.waitingBytes]).toEqual([3, 150]);
      expect((await judging.tally()).traffic.exchanges).toBe(2);
      await expect.poll(() => [judging.waiting, judging.waitingBytes], { timeout: 30_000 }).toEqual([0, 0]);
    } finally {
      await judging.close();
    }
  });

  it('a worker stuck in a judgement is stopped: its tally is not waited for past the time allowed', async () => {
    const failures: string[] = [];
    const judging = startJudging(
      { context: observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, T0), selection: {}, changesPointer: '/changes' },
      { onFailure: (what, error) => failures.push(`${what}: ${(error as Error).message}`) },
      fixture('stuck.mjs'),
      300,
    );
    try {
      expect(judging.where).toBe('worker thread');
      judging.add(new TranscriptBuilder().post('plan', { status: 200, body: {} }));
      expect(judging.waiting).toBe(1);
      const tally = await judging.tally();
      // The tally of a worker that gave none: nothing judged, and the exchange it held counted lost.
      expect(tally.traffic.exchanges).toBe(0);
      expect(judging.lost).toBe(1);
      expect(failures).toEqual(["the judges' worker thread stopped: it said nothing for 0.3 s while it had work; 1 exchange handed to it not judged, and none after"]);
    } finally {
      await judging.close();
    }
  });
});
