/**
 * What putting `observe` in front of a provisioner costs, measured as a platform team would before they put it in
 * front of production: the kit's own command line (`serve` for the provisioner, `observe` for the proxy), each a
 * process of its own, and a control plane written here that plans, applies and polls every 202 until its final
 * answer, at a steady rate with bursts.
 *
 * 1. Latency: the same load, in turns of ten seconds, sent straight to the provisioner, through a bare TCP relay
 *    (the yardstick: what any hop through a process of its own costs here) and through the observer; what the
 *    relay and the observer add at p50 and p99, and how many calls through the observer failed at the transport level.
 * 2. Memory: a long observation at a higher rate; the observer's RSS and peak RSS (from /proc, its process
 *    alone) at checkpoints, and how much it grew once warm.
 *
 * Run: npm run bench:observe            (470 calls/s with bursts of 50; then 300,000 exchanges at 1,000/s)
 *      npm run bench:observe -- --quick (the same, shorter: a first look, not a figure to quote)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const QUICK = process.argv.includes('--quick');
const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = resolve(ROOT, 'bin', 'provisioner-conformance.js');
const LATENCY_RATE = 470;
const BURST = 50;
const BURST_EVERY_MS = 5_000;
const TURN_SECONDS = QUICK ? 5 : 10;
const TURNS = QUICK ? 2 : 3;
const MEMORY_RATE = 1_000;
const MEMORY_EXCHANGES = QUICK ? 30_000 : 300_000;
const CHECKPOINTS = 10;
/** How often the control plane reads an operation it was given, as a busy control plane would. */
const POLL_MS = 100;
const CHANGE_SET = JSON.parse(readFileSync(resolve(ROOT, 'fixtures', 'change-sets', 'postgres.json'), 'utf8')) as Record<string, unknown>;

interface Child {
  process: ChildProcess;
  url: string;
}

/** Starts the kit's command line and waits for the line that names its URL (`serve` prints it on stdout, `observe` on stderr). */
async function startCli(args: string[]): Promise<Child> {
  return startNode([CLI, ...args]);
}

/** Starts a Node program and waits for the line that names its URL. */
async function startNode(args: string[]): Promise<Child> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((done, fail) => {
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        // The first URL of a line is the command's own (observe's line names its upstream after it).
        const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0];
        if (url) done({ process: child, url });
      });
    }
    child.once('exit', (code) => fail(new Error(`${args.join(' ')} ended (exit ${code}) before it printed its URL`)));
  });
}

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  await once(child.process, 'exit');
}

/** The observer's resident and peak resident memory, in MB, from its own process's status. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

interface Answer {
  ms: number;
  status: number;
  body: string;
}

/** A control plane: sends plans and applies, and reads every operation it is given until its final answer. */
class ControlPlane {
  readonly times: number[] = [];
  transportErrors = 0;
  /** The transport errors by their code (ECONNRESET, …), each counted. */
  readonly errorCodes = new Map<string, number>();
  exchanges = 0;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });
  private readonly polls: Array<{ id: string; due: number }> = [];
  private sequence = 0;
  private inFlight = 0;

  constructor(private base: string) {}

  /** Sends calls at `rate` per second, with a burst of plans every few seconds, until `until` says stop. */
  async drive(rate: number, until: () => boolean): Promise<void> {
    const began = performance.now();
    let sent = 0;
    let nextBurst = began + BURST_EVERY_MS;
    while (!until()) {
      const now = performance.now();
      const due = Math.floor(((now - began) * rate) / 1000);
      for (; sent < due; sent++) this.next(now);
      if (now >= nextBurst) {
        for (let i = 0; i < BURST; i++) this.send('POST', '/plan', this.changeSet());
        nextBurst += BURST_EVERY_MS;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    while (this.inFlight > 0) await new Promise((r) => setTimeout(r, 10));
  }

  /** Points the next calls elsewhere; operations not yet ended are read where they were accepted, so they are dropped. */
  retarget(base: string): void {
    this.base = base;
    this.polls.length = 0;
    this.times.length = 0;
    this.transportErrors = 0;
    this.errorCodes.clear();
  }

  close(): void {
    this.agent.destroy();
  }

  private next(now: number): void {
    const poll = this.polls[0];
    if (poll && poll.due <= now) {
      this.polls.shift();
      this.send('GET', `/operations/${poll.id}`, undefined, poll.id);
      return;
    }
    // One call in four is an apply, each of its own application so that no lock makes it wait.
    this.send('POST', this.sequence % 4 === 3 ? '/apply' : '/plan', this.changeSet());
  }

  private changeSet(): string {
    this.sequence += 1;
    return JSON.stringify({ ...CHANGE_SET, application: `bench-${this.sequence}` });
  }

  private send(method: 'GET' | 'POST', path: string, body?: string, operationId?: string): void {
    this.inFlight += 1;
    const base = this.base;
    void this.call(method, `${base}${path}`, body)
      .then((answer) => {
        this.times.push(answer.ms);
        this.exchanges += 1;
        this.follow(answer, operationId);
      })
      .catch((error: NodeJS.ErrnoException) => {
        this.transportErrors += 1;
        const code = error.code ?? error.message;
        this.errorCodes.set(code, (this.errorCodes.get(code) ?? 0) + 1);
      })
      .finally(() => {
        this.inFlight -= 1;
      });
  }

  /** Reads again an operation a 202 gave or a read found still in progress. */
  private follow(answer: Answer, readId: string | undefined): void {
    const parsed = safeJson(answer.body);
    const accepted = answer.status === 202 && typeof parsed?.['operationId'] === 'string' ? parsed['operationId'] : undefined;
    const stillOpen = readId !== undefined && answer.status === 200 && parsed?.['outcome'] === 'in_progress' ? readId : undefined;
    const id = accepted ?? stillOpen;
    if (id !== undefined) this.polls.push({ id, due: performance.now() + POLL_MS });
  }

  private call(method: 'GET' | 'POST', url: string, body?: string): Promise<Answer> {
    return new Promise((done, fail) => {
      const started = performance.now();
      const headers: Record<string, string | number> = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      const req = request(url, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done({ ms: performance.now() - started, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', fail);
      });
      req.on('error', fail);
      req.end(body);
    });
  }
}

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function latency(provisioner: Child, relay: Child, observer: Child): Promise<void> {
  console.log(`latency: ${LATENCY_RATE} calls/s (plans, applies, reads of every 202 each ${POLL_MS} ms) and ${BURST} plans at once every ${BURST_EVERY_MS / 1000} s; ${TURNS} turns of ${TURN_SECONDS} s straight, through a bare TCP relay and through the observer`);
  const paths = [
    ['straight', provisioner.url],
    ['through a bare relay', relay.url],
    ['through observe', observer.url],
  ] as const;
  const samples = new Map<string, number[]>(paths.map(([name]) => [name, []]));
  let errors = 0;
  const codes = new Map<string, number>();
  const plane = new ControlPlane(provisioner.url);
  // A first turn through each warms connections, the JIT and the judges' schemas; it is not counted.
  for (const turn of ['warm', ...Array.from({ length: TURNS }, (_, i) => String(i + 1))]) {
    for (const [name, url] of paths) {
      plane.retarget(url);
      const end = performance.now() + TURN_SECONDS * 1000;
      await plane.drive(LATENCY_RATE, () => performance.now() >= end);
      if (turn === 'warm') continue;
      samples.get(name)!.push(...plane.times);
      if (url === observer.url) errors += plane.transportErrors;
      for (const [code, count] of plane.errorCodes) codes.set(`${name} ${code}`, (codes.get(`${name} ${code}`) ?? 0) + count);
    }
  }
  plane.close();
  const sorted = new Map([...samples].map(([name, times]) => [name, times.sort((a, b) => a - b)]));
  for (const [name] of paths) {
    const times = sorted.get(name)!;
    console.log(`  ${name.padEnd(22)} n=${String(times.length).padStart(6)}  p50 ${percentile(times, 50).toFixed(2).padStart(6)} ms  p99 ${percentile(times, 99).toFixed(2).padStart(6)} ms`);
  }
  const added = (name: string, p: number): number => percentile(sorted.get(name)!, p) - percentile(sorted.get('straight')!, p);
  console.log(`  the bare relay adds ${added('through a bare relay', 50).toFixed(2)} ms at p50 and ${added('through a bare relay', 99).toFixed(2)} ms at p99: the floor of any proxy in a process of its own here`);
  console.log(`  the observer adds ${added('through observe', 50).toFixed(2)} ms at p50 (goal ≤ 0.30) and ${added('through observe', 99).toFixed(2)} ms at p99 (goal ≤ 2.00); transport errors through it: ${errors}${codes.size > 0 ? ` (${[...codes].map(([code, count]) => `${code} ×${count}`).join(', ')})` : ''}`);
}

/** What the observer's report says it judged: a judge that fell behind refuses exchanges, and its verdict is an error. */
function judgedOf(reportPath: string, sent: number): string {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { verdict: string; observation?: { traffic: { exchanges: number } }; conclusions: string[] };
  const judged = report.observation?.traffic.exchanges ?? 0;
  const refused = report.conclusions.filter((line) => /refused|fell behind|not judged/.test(line));
  return `the judges took ${judged.toLocaleString('en-US')} of the ${sent.toLocaleString('en-US')} exchanges answered; verdict ${report.verdict}${refused.length > 0 ? `: ${refused.join('; ')}` : ''}`;
}

async function memory(provisioner: Child): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-observe-'));
  const reportPath = join(folder, 'report.json');
  const observer = await startCli(['observe', '--upstream', provisioner.url, '--report', reportPath]);
  const pid = observer.process.pid!;
  console.log(`memory: ${MEMORY_EXCHANGES.toLocaleString('en-US')} exchanges through a fresh observer at ${MEMORY_RATE.toLocaleString('en-US')} calls/s`);
  const plane = new ControlPlane(observer.url);
  const step = MEMORY_EXCHANGES / CHECKPOINTS;
  let checkpoint = step;
  const rss: number[] = [];
  const began = performance.now();
  const watch = setInterval(() => {
    if (plane.exchanges < checkpoint) return;
    const { rss: now, peak } = memoryOf(pid);
    rss.push(now);
    console.log(`  ${plane.exchanges.toLocaleString('en-US').padStart(8)} exchanges  ${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s  RSS ${now.toFixed(0).padStart(4)} MB  peak ${peak.toFixed(0).padStart(4)} MB`);
    checkpoint += step;
  }, 50);
  await plane.drive(MEMORY_RATE, () => plane.exchanges >= MEMORY_EXCHANGES);
  clearInterval(watch);
  plane.close();
  const { peak } = memoryOf(pid);
  const warm = rss[Math.floor(rss.length / 3)] ?? NaN;
  const last = rss.at(-1) ?? NaN;
  console.log(`  peak RSS ${peak.toFixed(0)} MB (goal ≤ 200); from a third of the way (${warm.toFixed(0)} MB) to the end (${last.toFixed(0)} MB): ${(last - warm >= 0 ? '+' : '')}${(last - warm).toFixed(0)} MB; transport errors: ${plane.transportErrors}`);
  await stopChild(observer);
  console.log(`  ${judgedOf(reportPath, plane.exchanges)}`);
  rmSync(folder, { recursive: true, force: true });
}

async function main(): Promise<void> {
  // Operations are forgotten 10 s after their work ended, so that the provisioner's own store stays small: the
  // reference counts its operations on every call, and at a deadline of minutes it, not the observer, would slow down.
  const provisioner = await startCli(['serve', '--port', '0', '--mode', 'mixed', '--work', 'PT0.3S', '--max-operations', '1000000', '--max-operation-duration', 'PT10S']);
  const relay = await startNode([resolve(import.meta.dirname, 'support', 'bare-relay.js'), provisioner.url]);
  const observer = await startCli(['observe', '--upstream', provisioner.url]);
  try {
    await latency(provisioner, relay, observer);
    await stopChild(relay);
    await stopChild(observer);
    await memory(provisioner);
  } finally {
    await stopChild(relay);
    await stopChild(observer);
    await stopChild(provisioner);
  }
}

await main();
