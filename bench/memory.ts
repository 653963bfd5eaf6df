/**
 * Peak memory of the kit (a separate process, measured by /usr/bin/time) against hostile provisioners
 * served from this process: reads answering a valid 60 MB body, reads answering JSON nested 200,000
 * levels deep, and many ordinary exchanges. Prints peak RSS against exchanges. Run: npm run bench:memory
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'provisioner-conformance.js');

type ReadAnswer = (id: string, reads: number) => string;

/** An async provisioner whose operations never end: every read answers what `answer` makes. */
function hostile(answer: ReadAnswer): Promise<{ url: string; server: Server }> {
  const reads = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') {
        const id = randomUUID();
        reads.set(id, 0);
        res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ operationId: id }));
        return;
      }
      const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
      const count = reads.get(id);
      if (count === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown operation"}');
        return;
      }
      reads.set(id, count + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer(id, count));
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    done({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server });
  }));
}

function kitRun(url: string, args: string[]): Promise<{ peakMb: number; exchanges: number; seconds: number }> {
  const report = join(mkdtempSync(join(tmpdir(), 'pc-bench-mem-')), 'report.json');
  const started = performance.now();
  return new Promise((done, fail) => {
    execFile('/usr/bin/time', ['-f', '%M', process.execPath, BIN, 'run', '--url', url, '--report', report, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error && typeof error.code !== 'number') return fail(error);
      const peakKb = Number(stderr.trim().split('\n').pop());
      const parsed = JSON.parse(readFileSync(report, 'utf8')) as { exchanges: { total: number } };
      done({ peakMb: peakKb / 1024, exchanges: parsed.exchanges.total, seconds: (performance.now() - started) / 1000 });
    });
  });
}

const BIG = JSON.stringify({ outcome: 'in_progress', description: 'x'.repeat(60 * 1024 * 1024), results: [] });
const DEEP = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
const ORDINARY = JSON.stringify({ outcome: 'in_progress', description: 'copying data', results: [] });

const CASES: Array<{ name: string; answer: ReadAnswer; args: string[] }> = [
  { name: 'reads answer a valid 60 MB body', answer: () => BIG, args: ['--max-operation-duration', 'PT20S', '--poll-interval', 'PT0.05S'] },
  { name: 'reads answer JSON nested 200,000 deep', answer: () => DEEP, args: ['--max-operation-duration', 'PT20S', '--poll-interval', 'PT0.05S'] },
  { name: 'ordinary in_progress reads', answer: () => ORDINARY, args: ['--max-operation-duration', 'PT60S', '--poll-interval', 'PT0.01S'] },
];

for (const testCase of CASES) {
  const { url, server } = await hostile(testCase.answer);
  try {
    const result = await kitRun(url, ['--no-properties', '--plan-only', ...testCase.args]);
    console.log(`${testCase.name.padEnd(40)} exchanges ${String(result.exchanges).padStart(6)}  peak RSS ${result.peakMb.toFixed(0).padStart(4)} MB  (${result.seconds.toFixed(0)} s)`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
