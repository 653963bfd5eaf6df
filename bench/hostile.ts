/**
 * The kit against hostile provisioners, each run as a user would (the default profile, properties included,
 * `--poll-interval PT0.2S --max-operation-duration PT20S`, every output written: console, JSON, JUnit, HTML,
 * transcript and bundle), in a process of its own measured by /usr/bin/time. For each target it prints peak
 * RSS, wall time, exit code, verdict and whether the goal (at most 150 MB, ended within 4 minutes) was met.
 *
 * Every target is an async provisioner (POST answers 202 with an operationId) served from this process; what
 * is hostile is the answer named:
 *
 *   a 60 MB body           every read answers a valid JSON body of 60 MB (in_progress)
 *   an endless body        every read answers 200 with a chunked body that never ends
 *   a trickling body       every read answers 200 with a chunked body of a byte every 200 ms, never ending
 *   JSON 200,000 deep      every read answers arrays nested 200,000 levels deep
 *   10,000 headers         every read answers 10,000 headers (and an ordinary final body)
 *   invalid UTF-8          every answer holds bytes that are not UTF-8, in its body and a header
 *   echoed secrets         every answer echoes the user's headers (an API key, a bearer token) in its body,
 *                          in a header, in a URL's password, and across the cut of a body kept as head and tail;
 *                          every output of the run is then searched for the secrets
 *   every third never ends every third operation answers in_progress forever; the others end at their 2nd read
 *
 * Run: npm run bench:hostile. BENCH_HOSTILE_ONLY=deep,secrets picks some targets (ids as printed);
 * BENCH_HOSTILE_SERVE=<id> serves one target and prints its URL, to run the kit against it by hand;
 * BENCH_HOSTILE_KEEP=1 keeps each run's outputs (the folder is printed). A run still going after 6 minutes is
 * killed and reported so.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'provisioner-conformance.js');
const GOAL_MB = 150;
const GOAL_S = 240;
const KILL_AFTER_S = 360;
const KEEP = process.env.BENCH_HOSTILE_KEEP === '1';

/** The user's secrets, sent as headers; the echoing target answers them back. */
const API_KEY = `key-${randomBytes(12).toString('hex')}`;
const TOKEN = `tok-${randomBytes(12).toString('hex')}`;
const SECRETS = [API_KEY, TOKEN];

interface Operation {
  index: number;
  kind: 'plan' | 'apply';
  changes: Array<{ id: string; environment: string }>;
  reads: number;
}

/** What a read of an issued operation answers: a status, headers, and a body (bytes, or a writer for streams). */
interface Answer {
  status: number;
  headers?: Array<[string, string]>;
  body: Buffer | ((res: ServerResponse) => void);
}

interface Target {
  id: string;
  name: string;
  read(operation: Operation, req: IncomingMessage): Answer;
  /** What a POST's 202 answer carries besides the operationId. */
  accepted?(req: IncomingMessage): { extra?: Record<string, string>; headers?: Array<[string, string]> };
  args?: string[];
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const inProgress = (description = 'copying data'): Buffer => json({ outcome: 'in_progress', description, results: [] });

function finalBody(operation: Operation, note = ''): Record<string, unknown> {
  return {
    outcome: 'succeeded',
    description: `Done${note}.`,
    results: operation.changes.map((change) => ({
      id: change.id,
      environment: change.environment,
      outcome: 'succeeded',
      description: `${operation.kind === 'plan' ? 'Would change' : 'Changed'} ${change.id}.`,
    })),
  };
}

/** In progress at the first read, final from the second on. */
function ordinary(operation: Operation): Answer {
  return { status: 200, body: operation.reads < 2 ? inProgress() : json(finalBody(operation)) };
}

const BIG = Buffer.from(JSON.stringify({ outcome: 'in_progress', description: 'x'.repeat(60 * 1024 * 1024), results: [] }));
const DEEP = Buffer.from(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
const TEN_THOUSAND_HEADERS: Array<[string, string]> = Array.from({ length: 10_000 }, (_, i) => [`x-h${i}`, 'v']);
const NOT_UTF8 = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80]);

/** A JSON body whose description holds bytes that are not UTF-8. */
function garbled(prefix: Record<string, unknown>): Buffer {
  const text = JSON.stringify({ ...prefix, description: '@@' });
  const [head, tail] = text.split('@@') as [string, string];
  return Buffer.concat([Buffer.from(head), Buffer.from('note '), NOT_UTF8, Buffer.from(tail)]);
}

/** Writes chunks of `chunk` every `everyMs` until the client goes away. */
function endless(chunk: Buffer, everyMs: number): (res: ServerResponse) => void {
  return (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"outcome":"in_progress","description":"');
    const timer = setInterval(() => {
      if (res.destroyed || res.writableEnded) return clearInterval(timer);
      // Stop when the socket holds more than a few chunks unread: a client that reads nothing is not fed more.
      if (res.writableLength < 1024 * 1024) res.write(chunk);
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

/** What a request's headers say, echoed as a provisioner that logs its input into its answers would. */
function echoed(req: IncomingMessage): string {
  return `authorization=${req.headers.authorization ?? ''} x-api-key=${String(req.headers['x-api-key'] ?? '')}`;
}

/** A body longer than the kit keeps whole (64 KiB), with the token across the end of its kept 16 KiB head. */
function echoAcrossCut(req: IncomingMessage, outcome: Record<string, unknown>): Buffer {
  const token = String(req.headers.authorization ?? '');
  const text = JSON.stringify({ ...outcome, description: '@@' });
  const [head, tail] = text.split('@@') as [string, string];
  const padding = 16 * 1024 - Buffer.byteLength(head) - Math.floor(token.length / 2);
  const after = `${token} ${'y'.repeat(80 * 1024)} ${token.slice(0, 10)}`;
  // The tail kept (the last 4 KiB) starts in the middle of the key.
  const apiKey = String(req.headers['x-api-key'] ?? '');
  const beforeTail = 4 * 1024 - Buffer.byteLength(tail) - Math.floor(apiKey.length / 2);
  return Buffer.from(`${head}${'p'.repeat(padding)}${after}${apiKey}${'q'.repeat(beforeTail)}${tail}`);
}

const TARGETS: Target[] = [
  { id: 'big', name: 'a 60 MB body', read: () => ({ status: 200, body: BIG }) },
  { id: 'endless', name: 'an endless chunked body', read: () => ({ status: 200, body: endless(Buffer.alloc(16 * 1024, 'z'), 5) }) },
  { id: 'trickle', name: 'an endless body, a byte every 200 ms', read: () => ({ status: 200, body: endless(Buffer.from('z'), 200) }) },
  { id: 'deep', name: 'JSON 200,000 deep', read: () => ({ status: 200, body: DEEP }) },
  {
    id: 'headers',
    name: '10,000 headers',
    read: (operation) => ({ status: 200, headers: TEN_THOUSAND_HEADERS, body: ordinary(operation).body as Buffer }),
  },
  {
    id: 'utf8',
    name: 'invalid UTF-8',
    read: (operation) => ({
      status: 200,
      headers: [['x-note', '\u00ff\u00fe\u00c3(']],
      body: operation.reads < 2 ? garbled({ outcome: 'in_progress', results: [] }) : garbled(finalBody(operation)),
    }),
    accepted: () => ({ extra: { note: '\u00ff' }, headers: [['x-note', '\u00ff\u00fe']] }),
  },
  {
    id: 'secrets',
    name: 'echoed secrets',
    read: (operation, req) => {
      const headers: Array<[string, string]> = [['x-echo', echoed(req)]];
      if (operation.reads === 0) return { status: 200, headers, body: inProgress(`received ${echoed(req)}`) };
      if (operation.reads === 1) return { status: 200, headers, body: echoAcrossCut(req, { outcome: 'in_progress', results: [] }) };
      const final = finalBody(operation, ` (connect to postgres://admin:${String(req.headers['x-api-key'])}@db.internal/app; ${echoed(req)})`);
      return { status: 200, headers, body: json(final) };
    },
    accepted: (req) => ({ headers: [['x-echo', echoed(req)]] }),
    args: ['--header', `X-Api-Key: ${API_KEY}`, '--header', `Authorization: Bearer ${TOKEN}`],
  },
  {
    id: 'third',
    name: 'every third operation never ends',
    read: (operation) => (operation.index % 3 === 2 ? { status: 200, body: inProgress() } : ordinary(operation)),
  },
];

function send(res: ServerResponse, answer: Answer): void {
  if (typeof answer.body === 'function') return answer.body(res);
  const headers: Array<[string, string]> = [['content-type', 'application/json'], ...(answer.headers ?? [])];
  res.writeHead(answer.status, headers.flat());
  res.end(answer.body);
}

function serve(target: Target): Promise<{ url: string; server: Server }> {
  const operations = new Map<string, Operation>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method === 'POST') {
        let changes: Operation['changes'];
        try {
          const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { changes?: unknown };
          if (!Array.isArray(parsed.changes)) throw new Error('no changes');
          changes = (parsed.changes as Array<{ id?: unknown; environment?: unknown }>).map((c) => ({ id: String(c.id), environment: String(c.environment) }));
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"the body is not a change set"}');
          return;
        }
        const id = randomUUID();
        operations.set(id, { index: operations.size, kind: path.endsWith('/apply') ? 'apply' : 'plan', changes, reads: 0 });
        const accepted = target.accepted?.(req);
        send(res, { status: 202, headers: accepted?.headers, body: json({ operationId: id, ...accepted?.extra }) });
        return;
      }
      const id = decodeURIComponent(path.split('/').pop() ?? '');
      const operation = operations.get(id);
      if (!operation) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown operation"}');
        return;
      }
      const answer = target.read(operation, req);
      operation.reads++;
      send(res, answer);
    });
  });
  // Writes to a client that cut the body short fail: that is the kit doing its job.
  server.on('clientError', (_error, socket) => socket.destroy());
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      done({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server });
    }),
  );
}

interface Measured {
  peakMb: number | undefined;
  seconds: number;
  exitCode: number | undefined;
  killed: boolean;
  stdout: string;
  stderr: string;
}

/** The built kit under /usr/bin/time, in a process group of its own so that a run that does not end can be killed. */
function measure(args: string[]): Promise<Measured> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn('/usr/bin/time', ['-f', 'peak-rss-kb %M', process.execPath, BIN, ...args], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => void (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => void (stderr += text));
    let killed = false;
    const killer = setTimeout(() => {
      killed = true;
      process.kill(-child.pid!, 'SIGKILL');
    }, KILL_AFTER_S * 1000);
    child.on('error', fail);
    child.on('close', () => {
      clearTimeout(killer);
      const seconds = (performance.now() - started) / 1000;
      const timeLine = /peak-rss-kb (\d+)\s*$/.exec(stderr);
      const status = /Command exited with non-zero status (\d+)/.exec(stderr);
      const peakMb = timeLine ? Number(timeLine[1]) / 1024 : undefined;
      const exitCode = killed ? undefined : status ? Number(status[1]) : timeLine ? 0 : undefined;
      done({ peakMb, seconds, exitCode, killed, stdout, stderr: stderr.replace(/(Command exited with non-zero status \d+\n)?peak-rss-kb \d+\s*$/, '') });
    });
  });
}

/** Every file below a folder, with its path. */
function filesBelow(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [path];
  });
}

/** Where any of the secrets shows: the console, or a file the run wrote. */
function leaks(folder: string, run: Measured): string[] {
  const found: string[] = [];
  const texts: Array<[string, string]> = [
    ['console (stdout)', run.stdout],
    ['console (stderr)', run.stderr],
    ...filesBelow(folder).map((path): [string, string] => [path.slice(folder.length + 1), readFileSync(path, 'latin1')]),
  ];
  for (const [where, text] of texts) {
    // The secrets are hex after a short prefix: a piece of 8 hex characters is enough to betray one.
    const pieces = SECRETS.flatMap((secret) => [secret, secret.slice(4, 12), secret.slice(-8)]);
    const hit = pieces.filter((piece) => text.includes(piece));
    if (hit.length > 0) found.push(`${where} (${hit.length} of ${pieces.length} pieces)`);
  }
  return found;
}

interface ReportShape {
  verdict: string;
  exchanges?: { total: number };
  rules?: Array<{ id: string; status: string }>;
}

const only = process.env.BENCH_HOSTILE_ONLY?.split(',');
// BENCH_HOSTILE_SERVE=<id> only serves that target and prints its URL and the secrets' --header flags, to look into one run.
const served = TARGETS.find((t) => t.id === process.env.BENCH_HOSTILE_SERVE);
if (served) {
  const { url } = await serve(served);
  console.log(url, ...(served.args ?? []).map((arg) => JSON.stringify(arg)));
  await new Promise(() => undefined);
}
const rows: string[] = [];
console.log(`hostile targets: default run, --poll-interval PT0.2S --max-operation-duration PT20S, every output written; goal ≤ ${GOAL_MB} MB and ≤ ${GOAL_S} s`);
for (const target of TARGETS.filter((t) => only === undefined || only.includes(t.id))) {
  const folder = mkdtempSync(join(tmpdir(), `pc-bench-hostile-${target.id}-`));
  const { url, server } = await serve(target);
  try {
    const run = await measure([
      'run', '--url', url, '--poll-interval', 'PT0.2S', '--max-operation-duration', 'PT20S',
      '--report', join(folder, 'report.json'), '--junit', join(folder, 'junit.xml'), '--html', join(folder, 'report.html'),
      '--transcript', join(folder, 'transcript.json'), '--bundle', join(folder, 'bundle'),
      ...(target.args ?? []),
    ]);
    const reportPath = join(folder, 'report.json');
    let report: ReportShape | undefined;
    try {
      report = existsSync(reportPath) ? (JSON.parse(readFileSync(reportPath, 'utf8')) as ReportShape) : undefined;
    } catch {
      report = undefined;
    }
    const met = run.peakMb !== undefined && run.peakMb <= GOAL_MB && run.seconds <= GOAL_S && !run.killed;
    const failed = (report?.rules ?? []).filter((rule) => rule.status === 'fail').map((rule) => rule.id);
    const row = [
      target.name.padEnd(38),
      `peak RSS ${run.peakMb === undefined ? '   ?' : run.peakMb.toFixed(0).padStart(4)} MB`,
      `wall ${run.seconds.toFixed(0).padStart(4)} s${run.killed ? ' (killed)' : ''}`,
      `exit ${run.exitCode ?? '-'}`,
      `verdict ${report?.verdict ?? 'no report'}`,
      `exchanges ${report?.exchanges?.total ?? '?'}`,
      met ? 'goal met' : 'GOAL MISSED',
    ].join('  ');
    console.log(row);
    rows.push(row);
    if (failed.length > 0) console.log(`  failed: ${failed.join(', ')}`);
    const lastLines = run.stdout.trim().split('\n').slice(-3).join(' / ');
    console.log(`  console: ${run.stdout.trim().split('\n').length} lines, ends: ${lastLines.slice(0, 300)}`);
    if (run.stderr.trim() !== '') console.log(`  stderr: ${run.stderr.trim().split('\n').slice(-5).join(' / ').slice(0, 500)}`);
    if (target.id === 'secrets') {
      const found = leaks(folder, run);
      console.log(found.length === 0 ? '  secrets: in no output (console, JSON, JUnit, HTML, transcript, bundle)' : `  SECRETS LEAKED in: ${found.join(', ')}`);
    }
    if (KEEP) console.log(`  outputs kept in ${folder}`);
  } finally {
    server.closeAllConnections();
    server.close();
    if (!KEEP) rmSync(folder, { recursive: true, force: true });
  }
}
console.log('\nsummary');
for (const row of rows) console.log(row);
