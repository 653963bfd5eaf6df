/**
 * Memory of observing, in two cases. First, in a process of its own (its peak RSS is its own), answers near the
 * 1 MiB body limit through a running observer whose judges are slower than the traffic (its worker sleeps
 * 20 ms after each exchange), so that the queue toward them fills: peak RSS and what was not judged. Then, in
 * this process, the streaming judge over long traffic:
 * synthetic operations (a 202, three in_progress reads, a final answer; every 50th with partial results while
 * running, every 500th never ending, so that failures keep evidence and deadlines pass) go through the
 * recorder and the judge as the proxy hands them over; peak RSS and exchanges judged per second at checkpoints.
 * Run: npm run build && node dist/bench/observe-memory.js [exchanges, default 1000000] [large answers, default 1000]
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULTS } from '../src/core/defaults.js';
import { msOfDuration } from '../src/core/duration.js';
import { maxOperationDurationField } from '../src/config/fields.js';
import { resolveObserveConfig } from '../src/config/observe-config.js';
import { observedContext, startObservation } from '../src/observe/observe.js';
import { ExchangeRecorder, type SeenExchange } from '../src/observe/recorder.js';
import { StreamingJudge } from '../src/observe/streaming-judge.js';

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const LARGE = Number(process.argv[3] ?? 1000);
/** The argument that makes this process the large answers' case alone. */
const LARGE_ONLY = '--large-answers-only';
/** Bytes of each large answer: just under the observer's default body limit, so that every one is kept whole. */
const LARGE_BYTES = DEFAULTS.bodyLimitBytes - 1024;
/** Calls in flight at once in the large case. */
const LARGE_CONCURRENCY = 8;
const BASE = 'http://127.0.0.1:9000';
const CHANGE_SET = JSON.stringify({ application: 'shop', environment: 'test', kind: 'managed-resource', type: 'postgres', changes: [{ id: 'shop-db', environment: 'test', action: 'created', properties: { size: 'small' } }] });
const FINAL = JSON.stringify({ outcome: 'succeeded', description: 'Created shop-db.', results: [{ id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'Created.', outputs: { host: 'db.internal' } }] });
const PROGRESS = JSON.stringify({ outcome: 'in_progress', description: 'Creating shop-db.', results: [] });
const PARTIAL = JSON.stringify({ outcome: 'in_progress', description: 'Creating shop-db.', results: [{ id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'Created.' }] });
const JSON_HEADERS = { 'content-type': 'application/json' };

function seen(method: 'GET' | 'POST', path: string, at: number, status: number, body: string, requestBody?: string): SeenExchange {
  return {
    method,
    url: `${BASE}${path}`,
    path,
    requestHeaders: method === 'POST' ? { 'content-type': 'application/json', authorization: 'Bearer token-of-the-control-plane' } : {},
    ...(requestBody !== undefined && { requestBody }),
    sentAt: at,
    respondedAt: at + 2,
    endedAt: at + 3,
    response: { status, headers: JSON_HEADERS, chunks: [Buffer.from(body)], truncated: false },
  };
}

const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;

/** Plans answered with a body near the limit, through an observer whose judges fall behind: the queue's memory. */
async function largeAnswers(): Promise<void> {
  const head = JSON.stringify({ outcome: 'succeeded', description: 'Planned.', results: [{ id: 'shop-db', environment: 'test', outcome: 'succeeded', description: '' }] });
  const answer = Buffer.from(head.replace('"description":""', `"description":"${'x'.repeat(LARGE_BYTES - head.length)}"`));
  const upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      res.end(answer);
    });
  }).listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const config = await resolveObserveConfig({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, listen: '127.0.0.1:0' });
  const observation = await startObservation(config, { judgeWorker: new URL('./support/slow-judge-worker.js', import.meta.url), log: (line) => console.log(`  ${line}`) });
  console.log(`large answers: ${LARGE.toLocaleString('en-US')} POST /plan answered with ${answer.length.toLocaleString('en-US')} bytes each, ${LARGE_CONCURRENCY} at once, judges sleeping 20 ms per exchange (rss at start ${megabytes(process.memoryUsage().rss)})`);
  const began = performance.now();
  let sent = 0;
  const caller = async (): Promise<void> => {
    while (sent < LARGE) {
      sent += 1;
      const res = await fetch(`${observation.url}/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHANGE_SET });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: LARGE_CONCURRENCY }, caller));
  const trafficSeconds = (performance.now() - began) / 1000;
  const peakDuringTraffic = process.resourceUsage().maxRSS * 1024;
  const outcome = await observation.stop();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  console.log(`  traffic: ${trafficSeconds.toFixed(1)} s; peak RSS ${megabytes(peakDuringTraffic)} by its end, ${megabytes(process.resourceUsage().maxRSS * 1024)} by the observation's end (${((performance.now() - began) / 1000).toFixed(1)} s)`);
  console.log(`  judged ${outcome.observation!.traffic.exchanges} exchanges; verdict ${outcome.verdict}`);
  for (const conclusion of outcome.conclusions.filter((line) => /not judged|fell behind/.test(line))) console.log(`  ${conclusion}`);
}

async function main(): Promise<void> {
  if (process.argv[4] === LARGE_ONLY) return largeAnswers();
  if (LARGE > 0) {
    const child = fork(import.meta.filename, [String(TOTAL), String(LARGE), LARGE_ONLY], { stdio: 'inherit' });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`the large answers' case exited with code ${code}`);
  }
  const start = Date.now();
  const judge = new StreamingJudge({
    // The observer's own defaults, as `observe` with no flags judges.
    context: observedContext({ answerTimeoutMs: msOfDuration(DEFAULTS.answerTimeout), pollIntervalMs: msOfDuration(DEFAULTS.controlPlanePollInterval), maxOperationDuration: maxOperationDurationField(undefined, undefined) }, start),
    selection: {},
    changesPointer: DEFAULTS.changesPath,
  });
  const recorder = new ExchangeRecorder(DEFAULTS.bodyLimitBytes);
  let clock = start;
  let exchanges = 0;
  let operations = 0;
  let nextCheckpoint = Math.min(100_000, TOTAL);
  const began = performance.now();
  console.log(`streaming judge: ${TOTAL.toLocaleString('en-US')} exchanges, operations of 5 exchanges (rss at start ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB)`);
  while (exchanges < TOTAL) {
    const id = randomUUID();
    operations += 1;
    const partial = operations % 50 === 0;
    const endless = operations % 500 === 0;
    const batch = [seen('POST', '/apply', (clock += 10), 202, JSON.stringify({ operationId: id }), CHANGE_SET)];
    for (let read = 0; read < 3; read++) batch.push(seen('GET', `/operations/${id}`, (clock += 10), 200, partial ? PARTIAL : PROGRESS));
    if (!endless) batch.push(seen('GET', `/operations/${id}`, (clock += 10), 200, FINAL));
    for (const exchange of batch) {
      const recorded = await recorder.record(exchange);
      if (recorded) judge.add(recorded);
      exchanges += 1;
    }
    if (operations % 1000 === 0) judge.sweep(clock);
    if (exchanges >= nextCheckpoint) {
      const seconds = (performance.now() - began) / 1000;
      const peak = process.resourceUsage().maxRSS / 1024;
      console.log(`  ${exchanges.toLocaleString('en-US').padStart(10)} exchanges  ${operations.toLocaleString('en-US').padStart(8)} operations  peak RSS ${peak.toFixed(0)} MB  ${Math.round(exchanges / seconds).toLocaleString('en-US')} exchanges/s  evidence kept: ${judge.evidence.exchanges.length} exchanges`);
      nextCheckpoint += 100_000;
    }
  }
  judge.finish(clock + 31 * 60_000);
  const failed = judge.results().filter((result) => result.status === 'fail').map((result) => `${result.id} (${result.count})`);
  console.log(`done: failed ${failed.join(', ')}; open ${judge.traffic().operations.open}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

await main();
