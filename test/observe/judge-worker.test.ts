import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceProvisioner, type RunningReference } from '../../src/reference/index.js';
import { resolveObserveConfig } from '../../src/observe/config.js';
import { startObservation, type ObserveIo } from '../../src/observe/observe.js';
import type { RunOutcome } from '../../src/runner/outcome.js';
import { ROOT } from '../e2e/run-cli.js';

type ObserveModule = typeof import('../../src/observe/observe.js');
type ConfigModule = typeof import('../../src/observe/config.js');

const CHANGE_SET = readFileSync(join(ROOT, 'fixtures', 'change-sets', 'postgres.json'), 'utf8');
const fixture = (name: string): URL => pathToFileURL(join(ROOT, 'test', 'support', 'judge-workers', name));

/** One reference provisioner for the file: plans answered at once, applies accepted and worked on briefly. */
let reference: RunningReference;
beforeAll(async () => {
  reference = await startReferenceProvisioner({ mode: 'mixed', workMs: 50 });
});
afterAll(async () => {
  await reference.close();
});

async function post(base: string, kind: 'plan' | 'apply'): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${base}/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHANGE_SET });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** The control plane's traffic: a plan answered at once, then an apply followed to its final answer. */
async function drive(base: string): Promise<void> {
  expect((await post(base, 'plan')).status).toBe(200);
  const accepted = await post(base, 'apply');
  expect(accepted.status).toBe(202);
  for (;;) {
    const read = await fetch(`${base}/operations/${String(accepted.body.operationId)}`);
    const body = (await read.json()) as { outcome?: string };
    if (body.outcome !== 'in_progress') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function statuses(outcome: RunOutcome): Record<string, string> {
  return Object.fromEntries(outcome.rules.map((rule) => [rule.id, rule.status]));
}

describe('the judges on a worker thread', () => {
  it('built (dist), judge the traffic off the proxy thread as they judge it on it; reports wait for their tally', async () => {
    // The built observer, as an installed package runs it: its worker file sits beside it.
    const built = (await import(pathToFileURL(join(ROOT, 'dist', 'src', 'observe', 'observe.js')).href)) as ObserveModule;
    const builtConfig = (await import(pathToFileURL(join(ROOT, 'dist', 'src', 'observe', 'config.js')).href)) as ConfigModule;
    const dir = mkdtempSync(join(tmpdir(), 'pc-judge-worker-'));
    const observeWith = async (io: ObserveIo, report?: string): Promise<{ outcome: RunOutcome; during: RunOutcome }> => {
      const outputs = report === undefined ? {} : { report, reportEvery: 'PT0.05S', recordChangeSets: join(dir, 'change-sets') };
      const config = await builtConfig.resolveObserveConfig({ upstream: reference.url, listen: '127.0.0.1:0', maxOperationDuration: 'PT20S', ...outputs });
      const observation = await built.startObservation(config, io);
      try {
        await drive(observation.url);
        const during = await observation.outcome();
        return { outcome: await observation.stop(), during };
      } finally {
        await observation.stop();
      }
    };
    const report = join(dir, 'report.json');
    const onWorker = await observeWith({}, report);
    const onProxyThread = await observeWith({ judgeWorker: false });
    expect(onWorker.outcome.conclusions[0]).toContain('the judges ran on the worker thread');
    expect(onProxyThread.outcome.conclusions[0]).toContain('the judges ran on the proxy thread');
    // Asked while running, the tally waited for what was handed to the worker before (the last read may not be yet).
    expect(onWorker.during.observation!.traffic.byTag.plan).toBe(1);
    expect(onWorker.during.observation!.traffic.byTag.apply).toBe(1);
    expect(onWorker.during.observation!.traffic.byTag.poll).toBeGreaterThan(0);
    expect(onWorker.outcome.verdict).toBe('pass');
    expect(onWorker.outcome.observation!.traffic.operations.ended.final).toBe(1);
    expect(statuses(onWorker.outcome)).toEqual(statuses(onProxyThread.outcome));
    expect(statuses(onWorker.outcome)['final.results-match-changes']).toBe('pass');
    expect(onWorker.outcome.observation!.rules['answer.status']).toEqual(onProxyThread.outcome.observation!.rules['answer.status']);
    // The report written while it ran came from the worker's tally too.
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
    const config = await resolveObserveConfig({ upstream: reference.url, listen: '127.0.0.1:0' });
    const observation = await startObservation(config, { judgeWorker: fixture('behind.mjs'), mostWaiting: 2 });
    try {
      for (let i = 0; i < 5; i++) expect((await post(observation.url, 'plan')).status).toBe(200);
    } finally {
      const outcome = await observation.stop();
      expect(outcome.verdict).toBe('error');
      expect(outcome.conclusions[0]).toMatch(/^kit error KIT_INTERNAL: 3 exchanges of the traffic not judged \(the first cause: the judges fell behind the traffic: 2 exchanges were waiting/);
      // The two judged held; they are not said to hold on all five.
      expect(outcome.observation!.rules['answer.status']).toEqual({ exercised: 2, held: 2, broken: 0 });
      const status = outcome.rules.find((rule) => rule.id === 'answer.status')!;
      expect(status.status).toBe('not-exercised');
      expect(status.message).toMatch(/^not judged on all of the traffic \(3 exchanges of the traffic not judged\); on the traffic judged: held in all 2 situations observed/);
      expect(outcome.rules.filter((rule) => rule.status === 'pass')).toEqual([]);
      expect(outcome.observation!.recordingErrors?.count).toBe(3);
    }
  });
});
