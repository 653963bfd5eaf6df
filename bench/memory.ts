/**
 * Peak memory of the kit (a separate process, measured by /usr/bin/time) against hostile provisioners
 * served from this process: reads answering a valid 60 MB body, reads answering JSON nested 200,000
 * levels deep (as many as 20 s of polling every 50 ms makes, and 2,500 of them), and ordinary reads until a
 * number of them were served (then a final answer ends every operation, so the figure is taken at that many
 * exchanges whatever the machine's speed). Prints peak RSS
 * against exchanges and against body size, next to the kit's start-up and a run against an instant
 * provisioner. Run: npm run bench:memory
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'provisioner-conformance.js');

/** What a read answers, given how many reads of any operation were served before it. */
type ReadAnswer = (served: number) => string;

/** An async provisioner: every POST is accepted, every read of an issued id answers what `answer` makes. */
function hostile(answer: ReadAnswer): Promise<{ url: string; server: Server }> {
  const issued = new Set<string>();
  let served = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') {
        const id = randomUUID();
        issued.add(id);
        res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ operationId: id }));
        return;
      }
      const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
      if (!issued.has(id)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown operation"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer(served++));
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    done({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server });
  }));
}

interface Measured {
  peakMb: number;
  seconds: number;
  /** Exchanges of the run, from its JSON report (none for a command that runs nothing). */
  exchanges?: number;
}

/** Runs the built kit with `args` under /usr/bin/time; with a report path, reads the exchange count from it. */
function measure(args: string[], report?: string): Promise<Measured> {
  const started = performance.now();
  return new Promise((done, fail) => {
    execFile('/usr/bin/time', ['-f', '%M', process.execPath, BIN, ...args], { maxBuffer: 256 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error && typeof error.code !== 'number') return fail(error);
      const lines = stderr.trim().split('\n');
      const peakMb = Number(lines.pop()) / 1024;
      const seconds = (performance.now() - started) / 1000;
      if (report === undefined) return done({ peakMb, seconds });
      if (!existsSync(report)) return fail(new Error(`the kit wrote no report (exit ${error?.code ?? 0}): ${lines.slice(-5).join('\n')}`));
      const parsed = JSON.parse(readFileSync(report, 'utf8')) as { exchanges: { total: number } };
      done({ peakMb, seconds, exchanges: parsed.exchanges.total });
    });
  });
}

function kitRun(url: string, args: string[]): Promise<Measured> {
  const report = join(mkdtempSync(join(tmpdir(), 'pc-bench-mem-')), 'report.json');
  return measure(['run', '--url', url, '--report', report, '--no-properties', '--plan-only', ...args], report);
}

const IN_PROGRESS = JSON.stringify({ outcome: 'in_progress', description: 'copying data', results: [] });
const SUCCEEDED = JSON.stringify({ outcome: 'succeeded', description: 'done', results: [] });
const BIG = JSON.stringify({ outcome: 'in_progress', description: 'x'.repeat(60 * 1024 * 1024), results: [] });
const DEEP = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;

/** Reads answering `body` until `reads` were served, then a final answer. */
const until = (reads: number, body: string): ReadAnswer => (served) => (served < reads ? body : SUCCEEDED);

const FAST = ['--poll-interval', 'PT0.01S'];

const CASES: Array<{ name: string; body: string; answer: ReadAnswer; args: string[] }> = [
  { name: 'instant provisioner (final at once)', body: SUCCEEDED, answer: () => SUCCEEDED, args: FAST },
  { name: 'reads answer a valid 60 MB body', body: BIG, answer: () => BIG, args: ['--max-operation-duration', 'PT20S', '--poll-interval', 'PT0.05S'] },
  { name: 'JSON nested 200,000 deep, 2,500 reads', body: DEEP, answer: until(2_500, DEEP), args: ['--max-operation-duration', 'PT20S', '--poll-interval', 'PT0.05S'] },
  { name: 'reads answer JSON nested 200,000 deep', body: DEEP, answer: () => DEEP, args: ['--max-operation-duration', 'PT20S', '--poll-interval', 'PT0.05S'] },
  { name: 'ordinary reads, 10,000 of them', body: IN_PROGRESS, answer: until(10_000, IN_PROGRESS), args: ['--max-operation-duration', 'PT60S', ...FAST] },
  { name: 'ordinary reads, 50,000 of them', body: IN_PROGRESS, answer: until(50_000, IN_PROGRESS), args: ['--max-operation-duration', 'PT120S', ...FAST] },
];

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${bytes} B`;
}

const help = await measure(['run', '--help']);
console.log(`${'start-up (run --help)'.padEnd(40)} ${''.padStart(10)} ${''.padStart(16)}  peak RSS ${help.peakMb.toFixed(0).padStart(4)} MB`);
const ordinary: Measured[] = [];
for (const testCase of CASES) {
  const { url, server } = await hostile(testCase.answer);
  try {
    const result = await kitRun(url, testCase.args);
    if (testCase.body === IN_PROGRESS) ordinary.push(result);
    const body = `body ${size(Buffer.byteLength(testCase.body))}`;
    console.log(`${testCase.name.padEnd(40)} ${body.padStart(10)} ${`exchanges ${String(result.exchanges).padStart(6)}`.padStart(16)}  peak RSS ${result.peakMb.toFixed(0).padStart(4)} MB  (${result.seconds.toFixed(0)} s)`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
const [few, many] = ordinary;
if (few?.exchanges !== undefined && many?.exchanges !== undefined && many.exchanges > few.exchanges) {
  const perTenThousand = ((many.peakMb - few.peakMb) / (many.exchanges - few.exchanges)) * 10_000;
  console.log(`peak RSS grows by about ${perTenThousand.toFixed(1)} MB per 10,000 ordinary exchanges`);
}
