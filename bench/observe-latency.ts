/**
 * What the observer adds to each request: p50 and p99 latency of POST /plan against the reference provisioner
 * (sync mode: every call answered at once, and judged by the observer), called directly and through two
 * observers: one whose judges run on their worker thread (the default), one whose judges run on the proxy's
 * own thread, for comparison on the same run. All in this process on loopback. At a steady rate, then under
 * bursts of concurrent calls.
 * Run: npm run build && node dist/bench/observe-latency.js [steady rate per second, default 200] [burst size, default 500]
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { startReferenceProvisioner } from '../src/reference/index.js';
import { resolveObserveConfig } from '../src/config/observe-config.js';
import { startObservation, type RunningObservation } from '../src/observe/observe.js';

const RATE = Number(process.argv[2] ?? 200);
const STEADY_SECONDS = 10;
const BURST = Number(process.argv[3] ?? 500);
const BURST_ROUNDS = 5;
const CHANGE_SET = readFileSync(resolve(import.meta.dirname, '..', '..', 'fixtures', 'change-sets', 'postgres.json'));

function call(agent: Agent, base: string): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const req = request(`${base}/plan`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': CHANGE_SET.length } }, (res) => {
      res.resume();
      res.on('end', () => done(performance.now() - started));
    });
    req.on('error', fail);
    req.end(CHANGE_SET);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(name: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `${name.padEnd(36)} n=${String(sorted.length).padStart(5)}  p50 ${percentile(sorted, 50).toFixed(2).padStart(7)} ms  p99 ${percentile(sorted, 99).toFixed(2).padStart(7)} ms`;
}

async function steady(base: string): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const times: number[] = [];
  const pending: Array<Promise<void>> = [];
  const total = RATE * STEADY_SECONDS;
  const began = performance.now();
  for (let i = 0; i < total; i++) {
    const due = began + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(call(agent, base).then((ms) => void times.push(ms)));
  }
  await Promise.all(pending);
  agent.destroy();
  return times;
}

async function burst(base: string): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < BURST_ROUNDS; round++) {
    const agent = new Agent({ keepAlive: true, maxSockets: BURST });
    times.push(...(await Promise.all(Array.from({ length: BURST }, () => call(agent, base)))));
    agent.destroy();
  }
  return times;
}

/** Waits until the observer's judges took everything handed to them, and a little more, so that no phase pays for the one before. */
async function settle(observation: RunningObservation): Promise<void> {
  await observation.outcome();
  await new Promise((r) => setTimeout(r, 1000));
}

async function main(): Promise<void> {
  const reference = await startReferenceProvisioner({ mode: 'sync', maxOperations: 10_000 });
  const config = await resolveObserveConfig({ upstream: reference.url, listen: '127.0.0.1:0' });
  const onWorker = await startObservation(config);
  const onProxyThread = await startObservation(config, { judgeWorker: false });
  const paths: Array<{ name: string; url: string; observation?: RunningObservation }> = [
    { name: 'direct', url: reference.url },
    { name: 'observe, judges on worker', url: onWorker.url, observation: onWorker },
    { name: 'observe, judges in-thread', url: onProxyThread.url, observation: onProxyThread },
  ];
  try {
    // Warm every path (JIT, connections, the judges' compiled schemas) before measuring.
    for (const path of paths) {
      await burst(path.url);
      if (path.observation) await settle(path.observation);
    }
    console.log(`POST /plan to the reference provisioner (sync), ${RATE}/s for ${STEADY_SECONDS}s, then ${BURST_ROUNDS} bursts of ${BURST} at once`);
    for (const path of paths) {
      console.log(summary(`steady, ${path.name}`, await steady(path.url)));
      if (path.observation) await settle(path.observation);
    }
    for (const path of paths) {
      console.log(summary(`burst, ${path.name}`, await burst(path.url)));
      if (path.observation) await settle(path.observation);
    }
  } finally {
    for (const path of paths) {
      if (!path.observation) continue;
      const outcome = await path.observation.stop();
      console.log(`${path.name}: judged ${outcome.observation!.traffic.exchanges} exchanges (${outcome.conclusions[0]?.replace(/.*; /, '')}); verdict ${outcome.verdict}`);
      for (const rule of outcome.rules.filter((r) => r.status === "fail" || r.status === "warn" || r.status === "error")) console.log(`  ${rule.id} ${rule.status}: ${rule.message}`);
    }
    await reference.close();
  }
}

await main();
