import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startReferenceProvisioner, type RunningReference } from '../../src/reference/index.js';
import { runCli, type CliRun } from './run-cli.js';

// The kit behind a real nginx and a real HAProxy, configured as they are in front of production services:
// a correct provisioner must still pass, and what the proxy answers in its place must be called the proxy's.
// Keep-alive on both sides, nginx's buffering and HTTP/1.1 upstream, HAProxy's defaults: none needed anything of the kit.

/** A binary on PATH or in the sbin folders, where Debian puts nginx and haproxy (often not on a user's PATH). */
function findBinary(name: string): string | undefined {
  const folders = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const folder of folders.filter((f) => f !== '')) {
    const path = join(folder, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

const NGINX = findBinary('nginx');
const HAPROXY = findBinary('haproxy');

// Reads are fast and work is short so that each run takes seconds; a small burst keeps the two cores free.
const FLAGS = ['--no-properties', '--burst', '6', '--poll-interval', 'PT0.1S', '--max-operation-duration', 'PT20S'];

/** A port free on the loopback interface right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** Resolves once something accepts connections on the port; rejects if the process ends first or after 15 s. */
async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the proxy ended before it listened: ${log()}`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`the proxy did not listen on ${port} within 15 s: ${log()}`);
}

interface RunningProxy {
  url: string;
  /** Its logs, for a failure message. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts a command in its own process group, so that stopping it also stops the workers it forked. */
async function startProxy(command: string, args: string[], folder: string, port: number, logFiles: string[]): Promise<RunningProxy> {
  const child = spawn(command, args, { cwd: folder, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const log = (): string =>
    [output, ...logFiles.map((file) => {
      try {
        return readFileSync(join(folder, file), 'utf8');
      } catch {
        return '';
      }
    })].join('\n').slice(-4000);
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const group = -child.pid!;
      process.kill(group, 'SIGTERM');
      const ended = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
      if (!ended) {
        process.kill(group, 'SIGKILL');
        await exited;
      }
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, log, stop };
}

/**
 * nginx as usually put in front of an HTTP API: keep-alive connections to the upstream (HTTP/1.1, an empty
 * Connection header), buffering on, the default upstream retries. Every path it writes is in `folder`.
 */
async function startNginx(upstream: string, options: { readTimeoutS?: number } = {}): Promise<RunningProxy> {
  const folder = mkdtempSync(join(tmpdir(), 'pc-nginx-'));
  const port = await freePort();
  const conf = join(folder, 'nginx.conf');
  // Run as root, nginx's workers would become nobody, who may not write the temporary folder.
  writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${folder}/access.log;
  client_body_temp_path ${folder}/client_body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  upstream provisioner {
    server ${new URL(upstream).host};
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://provisioner;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_connect_timeout 2s;
      proxy_read_timeout ${options.readTimeoutS ?? 60}s;
    }
  }
}
`,
  );
  return startProxy(NGINX!, ['-p', folder, '-c', conf, '-e', join(folder, 'error.log'), '-g', 'daemon off;'], folder, port, ['error.log']);
}

/** HAProxy with the defaults of a usual HTTP setup: keep-alive both ways, its own error pages. */
async function startHaproxy(upstream: string, options: { serverTimeoutS?: number } = {}): Promise<RunningProxy> {
  const folder = mkdtempSync(join(tmpdir(), 'pc-haproxy-'));
  const port = await freePort();
  const conf = join(folder, 'haproxy.cfg');
  writeFileSync(
    conf,
    `global
  pidfile ${folder}/haproxy.pid
  maxconn 512
defaults
  mode http
  option httplog
  timeout connect 2s
  timeout client 30s
  timeout server ${options.serverTimeoutS ?? 30}s
  retries 2
frontend provisioner_in
  bind 127.0.0.1:${port}
  default_backend provisioner
backend provisioner
  server provisioner1 ${new URL(upstream).host}
`,
  );
  return startProxy(HAPROXY!, ['-db', '-f', conf], folder, port, []);
}

interface Upstream {
  url: string;
  /** Reads of known operations it broke off. */
  broken(): number;
  close(): Promise<void>;
}

/** How a broken read ends: the connection closed with no answer, or an answer no HTTP parser accepts. */
type ReadBreak = 'close' | 'invalid-answer';

/**
 * The reference provisioner behind a small node:http forwarder that bends what the reference cannot: it holds
 * POST /apply for `applyDelayMs` before passing it on, and instead of passing on every `every`th 200 read (a
 * read of an operation the reference knows) it breaks it off as `how` says.
 */
async function startUpstream(options: { applyDelayMs?: number; breakReads?: { every: number; how: ReadBreak } } = {}): Promise<Upstream> {
  const reference: RunningReference = await startReferenceProvisioner({ mode: 'async', workMs: 300 });
  const target = new URL(reference.url);
  let reads = 0;
  let broken = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const forward = (): void => {
        const out = request(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
          (answer) => {
            const body: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => body.push(chunk));
            answer.on('end', () => {
              const isRead = req.method === 'GET' && (req.url ?? '').startsWith('/operations/') && answer.statusCode === 200;
              const breaking = options.breakReads;
              if (isRead && breaking !== undefined && ++reads % breaking.every === 0) {
                broken += 1;
                if (breaking.how === 'close') req.socket.destroy();
                else req.socket.end('HTTP/1.1 200 OK\r\nnot a header line\r\n\r\n');
                return;
              }
              res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
            });
          },
        );
        out.on('error', () => req.socket.destroy());
        out.end(Buffer.concat(chunks));
      };
      if (req.method === 'POST' && req.url === '/apply' && options.applyDelayMs !== undefined) setTimeout(forward, options.applyDelayMs);
      else forward();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    broken: () => broken,
    async close() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await reference.close();
    },
  };
}

function rule(run: CliRun, id: string): { status: string; message: string; evidence: unknown[] } {
  const found = run.report?.rules.find((r) => r.id === id);
  if (!found) throw new Error(`no ${id} in the report: ${run.stderr}`);
  return found;
}

/** Every rule that failed or warned, with its message, so that a failed expectation says why. */
function notHolding(run: CliRun): string[] {
  return (run.report?.rules ?? []).filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => `${r.id}: ${r.status} (${r.message})`);
}

const PROXIES = [
  {
    name: 'nginx',
    binary: NGINX,
    start: (upstream: string, timeoutS?: number) => startNginx(upstream, timeoutS === undefined ? {} : { readTimeoutS: timeoutS }),
  },
  {
    name: 'HAProxy',
    binary: HAPROXY,
    start: (upstream: string, timeoutS?: number) => startHaproxy(upstream, timeoutS === undefined ? {} : { serverTimeoutS: timeoutS }),
  },
] as const;

for (const proxy of PROXIES) {
  describe.skipIf(proxy.binary === undefined)(`the kit behind a real ${proxy.name}${proxy.binary === undefined ? ` (skipped: no ${proxy.name.toLowerCase()} binary on PATH or in /usr/sbin)` : ''}`, () => {
    const running: Array<{ stop(): Promise<void> } | { close(): Promise<void> }> = [];

    afterEach(async () => {
      for (const item of running.splice(0).reverse()) await ('stop' in item ? item.stop() : item.close());
    });

    const proxyAnswered502 = `were answered 502 by the proxy in front of the provisioner \\(${proxy.name}\\)`;

    async function behindProxy(upstreamOptions: Parameters<typeof startUpstream>[0], timeoutS?: number): Promise<{ upstream: Upstream; front: RunningProxy }> {
      const upstream = await startUpstream(upstreamOptions);
      running.push(upstream);
      const front = await proxy.start(upstream.url, timeoutS);
      running.push(front);
      return { upstream, front };
    }

    it('passes a correct asynchronous provisioner with no rule failed or warned', async () => {
      const { front } = await behindProxy({});
      const run = await runCli(['run', '--url', front.url, ...FLAGS], { timeoutMs: 90_000 });
      expect(notHolding(run), `${run.stdout}\n${front.log()}`).toEqual([]);
      expect(run.exitCode).toBe(0);
      expect(rule(run, 'operation.transient-errors').status).toBe('pass');
      expect(rule(run, 'capacity.burst').status).toBe('pass');
    });

    it('calls the 504 of a timed-out apply the proxy\'s, naming it, not the provisioner\'s', async () => {
      const { front } = await behindProxy({ applyDelayMs: 2500 }, 1);
      const run = await runCli(['run', '--url', front.url, ...FLAGS], { timeoutMs: 90_000 });
      expect(run.exitCode, run.stdout).toBe(1);
      const status = rule(run, 'answer.status');
      expect(status.status).toBe('fail');
      const said = `${status.message}\n${JSON.stringify(status.evidence)}`;
      expect(said).toContain(`504 by the proxy in front of the provisioner (${proxy.name})`);
      expect(said).not.toContain('never answered 202');
      expect(run.stdout).toContain(`by the proxy in front of the provisioner (${proxy.name})`);
      // The repeat after the end is not judged, and says why in the same words.
      expect(rule(run, 'apply.idempotent').message).toContain(`apply of postgres was answered 504 by the proxy in front of the provisioner (${proxy.name})`);
    });

    it('warns about reads the proxy answered 502, polls counted apart from probe reads, and still passes', async () => {
      const { upstream, front } = await behindProxy({ breakReads: { every: 5, how: 'invalid-answer' } });
      const run = await runCli(['run', '--url', front.url, ...FLAGS], { timeoutMs: 90_000 });
      expect(upstream.broken()).toBeGreaterThan(0);
      const transient = rule(run, 'operation.transient-errors');
      expect(transient.status, `${transient.message}\n${front.log()}`).toBe('warn');
      expect(transient.message).toMatch(new RegExp(`^\\d+ of \\d+ polls?, and \\d+ of \\d+ probe reads?, ${proxyAnswered502}$`));
      expect(run.exitCode, notHolding(run).join('\n')).toBe(0);
    });

    // HAProxy answers 502 only when the broken read was the first request of the kit's connection; on a later one
    // it closes the connection without an answer, as a server closing an idle keep-alive connection would, so
    // that the client sends again. The kit can only say what it saw: a reset connection.
    it('counts reads whose upstream connection closed with no answer, polls apart from probe reads, and still passes', async () => {
      const { upstream, front } = await behindProxy({ breakReads: { every: 5, how: 'close' } });
      const run = await runCli(['run', '--url', front.url, ...FLAGS], { timeoutMs: 90_000 });
      expect(upstream.broken()).toBeGreaterThan(0);
      const transient = rule(run, 'operation.transient-errors');
      expect(transient.status, `${transient.message}\n${front.log()}`).toBe('warn');
      const counted = '(?:\\d+ of \\d+ polls?, and \\d+ of \\d+ probe reads?,|\\d+ of \\d+ polls?|\\d+ of \\d+ probe reads?)';
      const groups = transient.message.split('; ');
      for (const group of groups) expect(group).toMatch(new RegExp(`^${counted} (?:${proxyAnswered502}|had their connection reset)$`));
      // nginx answers 502 for every read its upstream closed; which reads were broken (polls, probe reads or both)
      // depends on how the kit's reads interleave, so only the way they were answered is asked for.
      if (proxy.name === 'nginx') expect(groups).toEqual([expect.stringMatching(new RegExp(`^${counted} ${proxyAnswered502}$`))]);
      expect(run.exitCode, notHolding(run).join('\n')).toBe(0);
    });
  });
}
