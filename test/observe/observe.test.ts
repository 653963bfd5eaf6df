import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import schema from '../../schemas/report.schema.json' with { type: 'json' };
import { ProvisionerClient } from '../../src/client/client.js';
import { bundledChangeSetFiles, loadChangeSets, type LoadedChangeSet } from '../../src/config/change-sets.js';
import { Poller } from '../../src/poller/poller.js';
import { startReferenceProvisioner, type ReferenceMode } from '../../src/reference/index.js';
import { resolveObserveConfig, type ObserveFlags } from '../../src/config/observe-config.js';
import { startObservation } from '../../src/observe/observe.js';
import { startProxy } from '../../src/observe/proxy.js';
import { NEVER_HAD } from '../../src/observe/rule-tally.js';
import { buildJsonReport } from '../../src/report/json-report.js';
import type { RunOutcome } from '../../src/runner/outcome.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import { ROOT, runCli } from '../e2e/run-cli.js';
import { harOf } from '../support/har-of.js';
import { startObserver } from '../../src/index.js';
import { RULES } from '../../src/rules/index.js';
import { verifyBundle } from '../../src/runner/verify-bundle.js';
import { verifyTranscriptFile } from '../../src/observe/verify-transcript.js';

const ajv = new Ajv2020Module.default({ allErrors: true, strict: true });
addFormatsModule.default(ajv);
const validateReport = ajv.compile(schema);

let changeSets: LoadedChangeSet[];
beforeAll(async () => {
  changeSets = await loadChangeSets(await bundledChangeSetFiles(), '/changes');
});

interface Observed {
  outcome: RunOutcome;
  /** What the stand-in control plane sent and got, through the observer. */
  traffic: Transcript;
}

/**
 * The reference provisioner (with a fault, or none) behind an observer, and the kit's own poller acting as the
 * control plane through it: each change set planned, then applied, all at once; postgres applied again later,
 * as a later run would. The observation is stopped once every operation was followed to its end.
 */
async function observeReference(fault: string | undefined, mode: ReferenceMode, flags: Partial<ObserveFlags> = {}): Promise<Observed> {
  const reference = await startReferenceProvisioner({ mode, workMs: 120, ...(fault !== undefined && { fault }) });
  const config = await resolveObserveConfig({ upstream: reference.url, listen: '127.0.0.1:0', maxOperationDuration: 'PT20S', ...flags });
  const observation = await startObservation(config);
  const traffic = new Transcript();
  const client = new ProvisionerClient({ baseUrl: observation.url, transcript: traffic });
  const poller = new Poller(client, {
    pollIntervalMs: 40,
    maxOperationDurationMs: config.maxOperationDuration.ms,
    answerTimeoutMs: 5000,
    concurrentReaders: 0,
    readAfterFinal: false,
  });
  const submit = async (kind: 'plan' | 'apply', changeSet: LoadedChangeSet): Promise<void> => {
    const accepted = await client.send({ suite: 'control-plane', tag: kind, probe: false, method: 'POST', path: `/${kind}`, body: changeSet.text, changeSet: changeSet.name, timeoutMs: 5000 });
    const operationId = acceptedOperationId(accepted);
    if (operationId !== undefined) await poller.follow({ accepted, operationId, kind, changeSet: changeSet.name, suite: 'control-plane' });
  };
  try {
    await Promise.all(changeSets.map(async (changeSet) => {
      await submit('plan', changeSet);
      await submit('apply', changeSet);
    }));
    await submit('apply', changeSets.find((changeSet) => changeSet.name === 'postgres')!);
    return { outcome: await observation.stop(), traffic };
  } finally {
    await observation.stop();
    await client.close();
    await reference.close();
  }
}

/** The transcript the observer appended as the traffic flowed, judged again by verify FILE: the same judgement as the observer's own. */
async function expectSameJudgement(transcript: string, live: RunOutcome): Promise<RunOutcome> {
  const again = await verifyTranscriptFile(transcript, {});
  expect(again.rules.map((result) => [result.id, result.status, result.count])).toEqual(live.rules.map((result) => [result.id, result.status, result.count]));
  expect(again.verdict).toBe(live.verdict);
  expect(again.observation!.rules).toEqual(live.observation!.rules);
  expect(again.observation!.traffic).toEqual(live.observation!.traffic);
  expect(again.conclusions).not.toContain(expect.stringContaining('the transcript has no end'));
  return again;
}

function rule(outcome: RunOutcome, id: string): RunOutcome['rules'][number] {
  return outcome.rules.find((result) => result.id === id)!;
}

/** Rules that did not hold: failed, warned or advised. */
function broken(outcome: RunOutcome): string[] {
  return outcome.rules.filter((result) => ['fail', 'warn', 'advice', 'error'].includes(result.status)).map((result) => result.id);
}

describe('observe: the control plane through the observer', () => {
  it('a conforming provisioner passes, every operation seen to its end, and what the traffic never had is not exercised', async () => {
    const transcript = join(mkdtempSync(join(tmpdir(), 'pc-observe-transcript-')), 'observed.ndjson');
    const { outcome, traffic } = await observeReference(undefined, 'mixed', { transcript });
    expect(broken(outcome)).toEqual([]);
    expect(outcome.verdict).toBe('pass');
    const observation = outcome.observation!;
    // mixed: plans answer 200 at once, applies 202: five operations, all ended with a final answer.
    expect(observation.traffic.operations).toEqual({ accepted: 5, open: 0, ended: { final: 5, lost: 0, unexpected: 0, deadline: 0, aborted: 0 } });
    expect(observation.traffic.byTag.plan).toBe(4);
    expect(observation.traffic.byTag.apply).toBe(5);
    expect(observation.traffic.exchanges).toBe(traffic.exchanges.length);
    expect(observation.traffic.changeSetTypes['managed-resource/postgres']).toBe(3);
    expect(observation.traffic.actions.created).toBeGreaterThan(0);
    // The apply of postgres sent again is the repeat rules' to judge, as a run's repeats are: eight calls for answer.status.
    expect(observation.rules['answer.status']).toEqual({ exercised: 8, held: 8, broken: 0 });
    // Each operation whose reads met it in progress exercised the rule: on a loaded machine a first read may come after the work ended.
    const metInProgress = new Set(traffic.exchanges.filter((e) => e.tag === 'poll' && /"in_progress"/.test(e.response?.body ?? '')).map((e) => e.operationId));
    expect(metInProgress.size).toBeGreaterThan(0);
    expect(observation.rules['operation.in-progress-results-empty']!.exercised).toBe(metInProgress.size);
    for (const id of ['operation.unknown-404', 'operation.malformed-id', 'capacity.burst', 'input.malformed-json']) {
      expect(rule(outcome, id).status).toBe('not-exercised');
      expect(rule(outcome, id).message).toContain(NEVER_HAD);
    }
    // The control plane applied postgres again once its first apply had ended: a repeat the traffic really had.
    expect(rule(outcome, 'apply.idempotent').status).toBe('pass');
    expect(rule(outcome, 'final.results-match-changes').status).toBe('pass');
    const report = buildJsonReport(outcome);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    // Every exchange was appended as it flowed, not only the evidence kept: verify FILE judges them all again.
    const lines = readFileSync(transcript, 'utf8').trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('{"exchange":'))).toHaveLength(traffic.exchanges.length);
    expect(outcome.transcript.exchanges.length).toBeLessThan(traffic.exchanges.length);
    await expectSameJudgement(transcript, outcome);
    const verified = await runCli(['verify', transcript], { withReport: false });
    expect(verified.exitCode).toBe(0);
    expect(verified.stdout).toContain(`judged again offline from ${transcript}, the transcript an observer wrote`);
  });

  // Every fault whose rule the control plane's own traffic can show; the rule it breaks, and nothing else, does not hold.
  const FAULTS: Array<{ fault: string; mode: ReferenceMode; breaks: string[]; flags?: Partial<ObserveFlags> }> = [
    { fault: 'partial-results', mode: 'async', breaks: ['operation.in-progress-results-empty'] },
    { fault: 'non-uuid-operation-id', mode: 'async', breaks: ['accepted.operation-id-uuid'] },
    { fault: 'repeated-operation-id', mode: 'async', breaks: ['accepted.operation-id-unique'] },
    { fault: 'numeric-operation-id', mode: 'async', breaks: ['accepted.body'] },
    { fault: 'extra-accepted-fields', mode: 'async', breaks: ['accepted.only-operation-id'] },
    { fault: 'time-ordered-operation-id', mode: 'async', breaks: ['accepted.operation-id-random'] },
    { fault: 'status-409-on-apply', mode: 'async', breaks: ['answer.status'] },
    { fault: 'text-plain-answers', mode: 'mixed', breaks: ['answer.json'] },
    { fault: 'in-progress-on-post', mode: 'sync', breaks: ['final.body'] },
    { fault: 'missing-result', mode: 'async', breaks: ['final.results-match-changes'] },
    { fault: 'bad-result-outcome', mode: 'mixed', breaks: ['final.result-shape'] },
    { fault: 'inconsistent-outcome', mode: 'mixed', breaks: ['final.outcome-consistent'] },
    { fault: 'read-status-202', mode: 'async', breaks: ['operation.status'] },
    { fault: 'flaky-reads', mode: 'async', breaks: ['operation.transient-errors'] },
    { fault: 'read-text-plain', mode: 'async', breaks: ['operation.body'] },
    { fault: 'empty-progress-note', mode: 'async', breaks: ['operation.in-progress-description'] },
    { fault: 'never-finishes', mode: 'async', breaks: ['operation.within-max-duration'], flags: { maxOperationDuration: 'PT0.4S' } },
  ];

  it.each(FAULTS)('$fault breaks $breaks, seen in real traffic; its bundle holds; its transcript is judged again the same', async ({ fault, mode, breaks, flags }) => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-observe-bundle-'));
    const bundle = join(dir, 'bundle');
    const transcript = join(dir, 'observed.ndjson');
    const { outcome } = await observeReference(fault, mode, { ...flags, bundle, transcript });
    expect(broken(outcome)).toEqual(breaks);
    const failed = rule(outcome, breaks[0]!);
    expect(failed.evidence.length).toBeGreaterThan(0);
    // The evidence names exchanges the outcome holds, from the observed traffic.
    for (const seq of failed.evidence[0]!.exchanges) expect(outcome.transcript.bySeq(seq)?.suite).toBe('observed');
    expect(outcome.verdict).toBe(RULES.find((r) => r.id === breaks[0])!.level === 'MUST' ? 'fail' : 'pass');
    // The bundle's evidence, judged again, still breaks the rule; the passes are not judged again.
    const check = await verifyBundle(bundle);
    expect(check.problems).toEqual([]);
    expect(check.observed).toBe(true);
    expect(check.checked).toEqual(['report.json', 'report.html', 'junit.xml', 'transcript.json', 'settings.json']);
    await expectSameJudgement(transcript, outcome);
  });

  const SECRET_IDS = ['shop-db', 'shop-debug-logs', 'shop-legacy-db', 'shop-logs', 'shop-reports-db', 'shop-vault', 'test-cluster'];
  it('a bundle of an observation is masked, and verify finds a broken rule its evidence does not show, and an edited file', async () => {
    const bundle = join(mkdtempSync(join(tmpdir(), 'pc-observe-bundle-')), 'bundle');
    const { outcome } = await observeReference('non-uuid-operation-id', 'async', { bundle, showSecrets: true, secret: SECRET_IDS });
    expect(outcome.verdict).toBe('fail');
    // Shown in the observation's own outcome (--show-secrets), never in its bundle.
    const evidenceText = JSON.stringify(outcome.transcript.exchanges.map((exchange) => exchange.request.body ?? ''));
    expect(SECRET_IDS.some((id) => evidenceText.includes(id))).toBe(true);
    for (const file of readdirSync(bundle)) for (const id of SECRET_IDS) expect(readFileSync(join(bundle, file), 'utf8')).not.toContain(id);
    const settings = JSON.parse(readFileSync(join(bundle, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(settings.showSecrets).toBe(false);
    const verified = await runCli(['verify', bundle], { withReport: false });
    expect(verified.exitCode).toBe(0);
    expect(verified.stdout).toContain('the passes were counted while observing and are not judged again');
    expect(verified.stdout).toContain('the bundle holds: every file is as written and every rule it records broken is still broken on its evidence');
    // A report that claims one more broken rule, its hash made to match: the evidence does not bear it out.
    const reportFile = join(bundle, 'report.json');
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { rules: Array<{ id: string; status: string }> };
    report.rules.find((r) => r.id === 'answer.status')!.status = 'fail';
    const text = `${JSON.stringify(report, null, 2)}\n`;
    writeFileSync(reportFile, text);
    const manifestFile = join(bundle, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { files: Array<{ path: string; sha256: string; bytes: number }> };
    const entry = manifest.files.find((file) => file.path === 'report.json')!;
    entry.sha256 = createHash('sha256').update(text).digest('hex');
    entry.bytes = Buffer.byteLength(text);
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const claimed = await verifyBundle(bundle);
    expect(claimed.problems).toEqual([{ file: 'report.json', problem: expect.stringContaining('records answer.status as fail, but the evidence its transcript keeps') as unknown }]);
    writeFileSync(join(bundle, 'junit.xml'), '<testsuites/>');
    const edited = await verifyBundle(bundle);
    expect(edited.problems.map((problem) => problem.file)).toEqual(['junit.xml']);
  });
});

/** Answers whatever it is asked with what it was asked, and a large binary body: the pass-through is compared byte for byte. */
let echo: Server;
let echoUrl: string;
const BIG = randomBytes(3 * 1024 * 1024);
beforeAll(async () => {
  echo = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      const seen = { method: req.method, url: req.url, headers: req.headers, bodySha: createHash('sha256').update(body).digest('hex') };
      res.setHeader('x-seen', Buffer.from(JSON.stringify(seen)).toString('base64'));
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.setHeader('connection', 'keep-alive, x-hop');
      res.setHeader('x-hop', 'only for this connection');
      res.writeHead(418, 'Short And Stout', { 'content-type': 'application/octet-stream' });
      // In pieces, as a stream: the observer passes each on as it comes.
      res.write(BIG.subarray(0, 1000));
      setTimeout(() => res.end(BIG.subarray(1000)), 20);
    });
  });
  echo.listen(0, '127.0.0.1');
  await once(echo, 'listening');
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});
afterAll(async () => {
  echo.closeAllConnections();
  await new Promise((resolve) => echo.close(resolve));
});

interface RawAnswer {
  status: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function call(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, statusMessage: res.statusMessage!, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('observe: the traffic passes unchanged', () => {
  it('method, path, query, end-to-end headers and body bytes reach the provisioner; status, headers and body come back as sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-observe-'));
    const report = join(dir, 'report.json');
    const transcript = join(mkdtempSync(join(tmpdir(), 'pc-observe-transcript-')), 'observed.ndjson');
    const config = await resolveObserveConfig({ upstream: echoUrl, listen: '127.0.0.1:0', report, reportEvery: 'PT0.05S', transcript });
    const observation = await startObservation(config);
    try {
      const sent = randomBytes(200_000);
      const headers = { 'content-type': 'application/json', authorization: 'Bearer observed-secret-token', 'x-trace': 'abc', connection: 'keep-alive, x-private', 'x-private': 'hop' };
      const direct = await call(`${echoUrl}/plan?dry=1&x=%2F`, 'POST', headers, sent);
      const proxied = await call(`${observation.url}/plan?dry=1&x=%2F`, 'POST', headers, sent);
      expect(proxied.status).toBe(418);
      expect(proxied.statusMessage).toBe('Short And Stout');
      expect(proxied.body.equals(BIG)).toBe(true);
      expect(proxied.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      expect(proxied.headers['x-hop']).toBeUndefined();
      const seenDirect = JSON.parse(Buffer.from(String(direct.headers['x-seen']), 'base64').toString()) as { method: string; url: string; headers: Record<string, string>; bodySha: string };
      const seenProxied = JSON.parse(Buffer.from(String(proxied.headers['x-seen']), 'base64').toString()) as typeof seenDirect;
      expect(seenProxied.method).toBe('POST');
      expect(seenProxied.url).toBe(seenDirect.url);
      expect(seenProxied.bodySha).toBe(seenDirect.bodySha);
      expect(seenProxied.headers.authorization).toBe('Bearer observed-secret-token');
      expect(seenProxied.headers['x-trace']).toBe('abc');
      expect(seenProxied.headers.host).toBe(new URL(echoUrl).host);
      // Connection and the headers it names belong to the hop from the control plane to the observer.
      expect(seenProxied.headers['x-private']).toBeUndefined();
      expect(proxied.headers['content-type']).toBe(direct.headers['content-type']);
      // Rewritten while the observer runs, whole each time (a temporary file renamed), secrets masked.
      await expect.poll(() => readdirSync(dir), { interval: 20, timeout: 5000 }).toEqual(['report.json']);
      const written = readFileSync(report, 'utf8');
      expect((JSON.parse(written) as { observation: { source: string } }).observation.source).toBe('proxy');
      expect(written).not.toContain('observed-secret-token');
    } finally {
      const outcome = await observation.stop();
      // The huge answer was judged on the head kept: recorded cut, never held whole.
      const post = outcome.transcript.exchanges.find((exchange) => exchange.tag === 'plan');
      if (post) expect(post.response?.truncated).toBe(true);
      expect(outcome.observation!.traffic.byTag.plan).toBe(1);
      // Appended as it flowed: the head kept, said to be cut, the credential masked.
      const written = readFileSync(transcript, 'utf8');
      expect(written).not.toContain('observed-secret-token');
      // The first exchange line (a deadline check may come before it when the observer runs a second before it).
      const lines = written.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { exchange?: { response: { truncated: boolean; bodyBytes: number } } });
      const exchange = lines.find((line) => line.exchange !== undefined)!.exchange!;
      expect(exchange.response.truncated).toBe(true);
      expect(exchange.response.bodyBytes).toBe(config.bodyLimitBytes);
    }
  });

  it('a transcript that cannot be written is told once and in the report; the traffic passes as ever', async () => {
    const logs: string[] = [];
    const config = await resolveObserveConfig({ upstream: echoUrl, listen: '127.0.0.1:0', transcript: '/dev/full' });
    const observation = await startObservation(config, { log: (line) => logs.push(line) });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call(`${observation.url}/plan`, 'POST', { 'content-type': 'application/json' }, Buffer.from('{}')));
    const outcome = await observation.stop();
    for (const answer of answers) expect(answer.body.equals(BIG)).toBe(true);
    expect(logs.filter((line) => line.includes('--transcript'))).toEqual([
      'observe: the transcript could not be written: --transcript /dev/full: cannot write it: no space left on the device (ENOSPC) (the traffic is not affected)',
    ]);
    expect(outcome.conclusions).toContain('--transcript /dev/full: cannot write it: no space left on the device (ENOSPC): it holds what was written before; the observation went on');
    expect(outcome.observation!.recordingErrors?.first).toContain('--transcript /dev/full');
    expect(outcome.observation!.traffic.byTag.plan).toBe(3);
  });

  it('a listener that throws on every exchange fails, delays and alters no request', async () => {
    const failures: unknown[] = [];
    const proxy = await startProxy({
      upstream: echoUrl,
      host: '127.0.0.1',
      port: 0,
      bodyLimitBytes: 1024,
      onExchange: () => {
        throw new Error('the judge broke');
      },
      onRecordingError: (error) => failures.push(error),
    });
    try {
      const answers = await Promise.all([1, 2, 3].map(() => call(`${proxy.url}/operations/x`, 'GET', {})));
      for (const answer of answers) {
        expect(answer.status).toBe(418);
        expect(answer.body.equals(BIG)).toBe(true);
      }
      await expect.poll(() => failures.length).toBe(3);
    } finally {
      await proxy.close();
    }
  });

  it('an unreachable provisioner is answered 502 with a JSON body, recorded as a transport error', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dir = mkdtempSync(join(tmpdir(), 'pc-observe-'));
    const config = await resolveObserveConfig({ upstream: `http://127.0.0.1:${port}`, listen: '127.0.0.1:0', report: join(dir, 'report.json') });
    const observation = await startObservation(config);
    const answer = await call(`${observation.url}/plan`, 'POST', { 'content-type': 'application/json' }, Buffer.from(changeSets[0]!.text));
    const outcome = await observation.stop();
    expect(answer.status).toBe(502);
    expect(answer.headers['content-type']).toBe('application/json');
    expect((JSON.parse(answer.body.toString()) as { message: string }).message).toMatch(/the observer could not reach the provisioner/);
    expect(outcome.verdict).toBe('unreachable');
    expect(outcome.exitCode).toBe(3);
    const evidence = rule(outcome, 'answer.status').evidence[0]!;
    expect(outcome.transcript.bySeq(evidence.exchanges[0]!)?.error?.kind).toBe('refused');
    expect(readdirSync(dir)).toEqual(['report.json']);
  });
});

describe('startObserver: an observer started in code', () => {
  it('passes the traffic, and stop() resolves to the JSON report, its evidence with secrets masked', async () => {
    const reference = await startReferenceProvisioner({ mode: 'sync', fault: 'trailing-garbage-accepted' });
    try {
      const observer = await startObserver({ upstream: reference.url, registration: join(ROOT, 'fixtures', 'registrations', 'reference.json'), strict: true });
      const body = Buffer.from(changeSets[0]!.text);
      const answer = await call(`${observer.url}/plan`, 'POST', { 'content-type': 'application/json', authorization: 'Bearer library-secret-value' }, body);
      expect(answer.status).toBe(200);
      // Not JSON (text after the change set): this reference takes it, and the evidence of input.malformed-json shows that request.
      const garbled = `${changeSets[0]!.text} garbage`;
      const taken = await call(`${observer.url}/plan`, 'POST', { 'content-type': 'application/json', authorization: 'Bearer library-secret-value' }, Buffer.from(garbled));
      expect(taken.status).toBe(200);
      await expect.poll(async () => (await observer.report()).observation?.traffic.byTag.plan).toBe(2);
      const report = await observer.stop();
      expect(await observer.finished).toEqual(report);
      expect(report.verdict).toBe('fail');
      expect(report.rules.find((r) => r.id === 'input.malformed-json')?.evidence[0]?.exchanges[0]?.requestBody).toBe(garbled);
      expect(report.rules.find((r) => r.id === 'registration.body')?.status).toBe('pass');
      expect(report.observation?.rules['final.body']).toEqual({ exercised: 1, held: 1, broken: 0 });
      expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
      expect(JSON.stringify(report)).not.toContain('library-secret-value');
    } finally {
      await reference.close();
    }
  });
});

describe('verify --har: recorded traffic, judged the same way', () => {
  it('a HAR the control plane wrote of a provisioner with non-UUID ids fails accepted.operation-id-uuid, with the same report outputs', async () => {
    const { outcome: live, traffic } = await observeReference('non-uuid-operation-id', 'async');
    const dir = mkdtempSync(join(tmpdir(), 'pc-har-'));
    const har = join(dir, 'traffic.har');
    writeFileSync(har, harOf(traffic.exchanges));
    const run = await runCli(['verify', '--har', har, '--max-operation-duration', 'PT20S', '--junit', join(dir, 'junit.xml'), '--record-change-sets', join(dir, 'change-sets')]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(1);
    expect(run.report?.verdict).toBe('fail');
    expect(run.report!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['accepted.operation-id-uuid']);
    expect(validateReport(run.report), JSON.stringify(validateReport.errors)).toBe(true);
    // The same judgement live and recorded: each rule's status and how often it was exercised.
    const recorded = run.report!.observation as { traffic: { operations: unknown }; rules: Record<string, unknown> };
    expect(recorded.rules).toEqual(live.observation!.rules);
    expect(recorded.traffic.operations).toEqual(live.observation!.traffic.operations);
    expect(run.report!.rules.map((r) => r.status)).toEqual(live.rules.map((r) => r.status));
    expect(readdirSync(dir).sort()).toEqual(['change-sets', 'junit.xml', 'traffic.har']);
    expect(readdirSync(join(dir, 'change-sets'))).toHaveLength(changeSets.length);
  });
});
