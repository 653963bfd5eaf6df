/**
 * What the observer adds to each request: p50 and p99 latency of POST /plan against the reference provisioner
 * (sync mode: every call answered at once, and judged by the observer), called directly and through the
 * observer, all in this process on loopback. At a steady rate, then under a burst of concurrent calls.
 * Run: npm run build && node dist/bench/observe-latency.js [steady rate per second, default 200] [burst size, default 500]
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { startReferenceProvisioner } from '../src/reference/index.js';
import { resolveObserveConfig } from '../src/observe/config.js';
import { startObservation } from '../src/observe/observe.js';

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
  return `${name.padEnd(24)} n=${String(sorted.length).padStart(5)}  p50 ${percentile(sorted, 50).toFixed(2).padStart(7)} ms  p99 ${percentile(sorted, 99).toFixed(2).padStart(7)} ms`;
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

async function main(): Promise<void> {
  const reference = await startReferenceProvisioner({ mode: 'sync', maxOperations: 10_000 });
  const config = await resolveObserveConfig({ upstream: reference.url, listen: '127.0.0.1:0' });
  const observation = await startObservation(config);
  try {
    // Warm both paths (JIT, connections, the judges' compiled schemas) before measuring.
    await burst(reference.url);
    await burst(observation.url);
    console.log(`POST /plan to the reference provisioner (sync), ${RATE}/s for ${STEADY_SECONDS}s, then ${BURST_ROUNDS} bursts of ${BURST} at once`);
    console.log(summary('steady, direct', await steady(reference.url)));
    console.log(summary('steady, through observe', await steady(observation.url)));
    console.log(summary('burst, direct', await burst(reference.url)));
    console.log(summary('burst, through observe', await burst(observation.url)));
  } finally {
    const outcome = await observation.stop();
    console.log(`observer judged ${outcome.observation!.traffic.exchanges} exchanges; verdict ${outcome.verdict}`);
    await reference.close();
  }
}

await main();
