import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli.js';

// Targets that answer what no provisioner should: the kit must end every run with a report that parses,
// print no raw control character, never follow a redirect, and never write the user's secret anywhere.

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const SECRET = 'Bearer tok-9f8e7d6c5b4a-secret';
const API_KEY = 'key-0a1b2c3d4e5f-secret';
// What a terminal would act on: C0/C1 controls but tab and newline, DEL, and bidirectional overrides.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** True on every `n`th call: the twists alternate with ordinary answers, the same way on every run. */
function everyNth(n: number): () => boolean {
  let calls = 0;
  return () => ++calls % n === 0;
}

/** Serves `handler` on loopback until the test that asked for it ends (the tests run side by side). */
function listen(onTestFinished: (close: () => Promise<void>) => void, handler: Handler): Promise<string> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

/** An asynchronous provisioner whose answers `twist` bends; reads of ids it issued answer in_progress, then succeeded. */
function provisioner(twist: (kind: 'post' | 'read', req: IncomingMessage, res: ServerResponse) => boolean): Handler {
  const operations = new Map<string, { changes: Array<{ id: string; environment: string }>; reads: number }>();
  return (req, res, body) => {
    const kind = req.method === 'POST' ? 'post' : 'read';
    if (twist(kind, req, res)) return;
    if (kind === 'post') {
      let changes: Array<{ id: string; environment: string }>;
      try {
        changes = (JSON.parse(body) as { changes: typeof changes }).changes;
        if (!Array.isArray(changes)) throw new Error('no changes');
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"not a change set"}');
        return;
      }
      const id = randomUUID();
      operations.set(id, { changes, reads: 0 });
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ operationId: id }));
      return;
    }
    const operation = operations.get(decodeURIComponent((req.url ?? '').split('/').pop() ?? ''));
    if (!operation) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown operation"}');
      return;
    }
    operation.reads += 1;
    const answer =
      operation.reads < 3
        ? { outcome: 'in_progress', description: 'working', results: [] }
        : { outcome: 'succeeded', results: operation.changes.map(({ id, environment }) => ({ id, environment, outcome: 'succeeded' })) };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  };
}

const FLAGS = [
  '--no-properties',
  '--burst',
  '5',
  '--poll-interval',
  'PT0.1S',
  '--max-operation-duration',
  'PT4S',
  '--answer-timeout',
  'PT1S',
  '--header',
  `Authorization: ${SECRET}`,
  '--header',
  `X-Api-Key: ${API_KEY}`,
];

/** Runs the kit with every output written, and checks what every hostile run must hold whatever the target did. */
async function runAgainst(url: string): Promise<{ exitCode: number; failed: string[]; outputs: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'pc-hostile-'));
  const run = await runCli(['run', '--url', url, ...FLAGS, '--junit', join(folder, 'junit.xml'), '--html', join(folder, 'report.html'), '--transcript', join(folder, 'transcript.json'), '--bundle', join(folder, 'bundle')], { timeoutMs: 90_000 });
  expect(run.report, run.stderr).toBeDefined();
  expect([1, 3]).toContain(run.exitCode);
  expect(run.stdout).not.toMatch(RAW_CONTROL);
  expect(run.stderr).not.toMatch(RAW_CONTROL);
  const files = [...readdirSync(folder).filter((name) => name !== 'bundle'), ...readdirSync(join(folder, 'bundle')).map((name) => join('bundle', name))];
  const outputs = [run.stdout, run.stderr, JSON.stringify(run.report), ...files.map((name) => readFileSync(join(folder, name), 'utf8'))].join('\n');
  for (const secret of [SECRET, SECRET.slice('Bearer '.length), API_KEY]) expect(outputs).not.toContain(secret);
  return { exitCode: run.exitCode, failed: run.report!.rules.filter((r) => r.status === 'fail').map((r) => r.id), outputs };
}

// Each test has its servers and its folder to itself: they run side by side, one's waits overlapping another's work.
describe.concurrent('the CLI against hostile targets', () => {
  it('never follows a redirect, not even to another host', async ({ onTestFinished }) => {
    let elsewhere = 0;
    const other = await listen(onTestFinished, (_req, res) => {
      elsewhere += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"outcome":"succeeded","results":[]}');
    });
    const url = await listen(
      onTestFinished,
      provisioner((kind, req, res) => {
        res.writeHead(kind === 'post' ? 307 : 302, { location: `${other}${req.url ?? '/'}` }).end();
        return true;
      }),
    );
    const { failed } = await runAgainst(url);
    expect(elsewhere).toBe(0);
    expect(failed).toContain('answer.status');
  });

  it('survives 10,000 headers on every answer', async ({ onTestFinished }) => {
    const url = await listen(
      onTestFinished,
      provisioner((_kind, _req, res) => {
        for (let i = 0; i < 10_000; i++) res.setHeader(`x-filler-${i}`, 'x');
        return false;
      }),
    );
    await runAgainst(url);
  });

  it('shows ANSI, bidi and invalid UTF-8 in progress notes and error pages as inert text', async ({ onTestFinished }) => {
    const twisted = everyNth(2);
    const url = await listen(
      onTestFinished,
      provisioner((kind, req, res) => {
        if (kind === 'read' && twisted()) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            Buffer.concat([Buffer.from('{"outcome":"in_progress","description":"\\u001b[31mred\\u001b]8;;https://evil.example\\u0007link \\u202egnp.exe '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('","results":[]}')]),
          );
          return true;
        }
        if (kind === 'post' && req.url === '/apply') {
          res.writeHead(500, { 'content-type': 'text/html' }).end(Buffer.concat([Buffer.from('<h1>\u001b[2J\u001b[Hboom \u202eevil</h1>'), Buffer.from([0xc0, 0x80])]));
          return true;
        }
        return false;
      }),
    );
    const { failed } = await runAgainst(url);
    expect(failed).toContain('answer.status');
  });

  it('writes no secret that the target echoes back in its notes, outputs and error pages', async ({ onTestFinished }) => {
    const twisted = everyNth(2);
    const url = await listen(
      onTestFinished,
      provisioner((kind, req, res) => {
        const echoed = `${String(req.headers.authorization)} ${String(req.headers['x-api-key'])}`;
        if (kind === 'read' && twisted()) {
          res.writeHead(200, { 'content-type': 'application/json', 'x-echo': echoed }).end(JSON.stringify({ outcome: 'in_progress', description: `authorized as ${echoed}`, results: [] }));
          return true;
        }
        if (kind === 'post' && req.url === '/apply') {
          res.writeHead(500, { 'content-type': 'text/html' }).end(`<h1>Internal Server Error</h1><p>token ${echoed} rejected</p>`);
          return true;
        }
        return false;
      }),
    );
    const { failed } = await runAgainst(url);
    expect(failed).toContain('answer.status');
  });

  it('ends a run whose every answer is an endless body or a deep, huge or garbage one', async ({ onTestFinished }) => {
    const deep = everyNth(3);
    const huge = everyNth(3);
    const url = await listen(
      onTestFinished,
      provisioner((kind, req, res) => {
        if (kind === 'post' && req.url === '/apply') {
          res.writeHead(200, { 'content-type': 'application/json' });
          const more = setInterval(() => res.write('['.repeat(1024)), 5);
          res.on('close', () => clearInterval(more));
          return true;
        }
        if (kind === 'read' && deep()) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
          return true;
        }
        if (kind === 'read' && huge()) {
          res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(3 * 1024 * 1024, 0x07));
          return true;
        }
        return false;
      }),
    );
    await runAgainst(url);
  });
});
