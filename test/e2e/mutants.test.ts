import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { delay, http, HttpResponse } from 'msw';
import { mockProvisioners, succeededFor } from '../support/mock-provisioners.js';
import { runCli } from './run-cli.js';

// Provisioners written apart from the reference, each with its own quirks, served by msw over loopback.

const PROXY_PAGE = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{font-family:sans-serif}</style></head>
<body><h1>502 Bad Gateway</h1><p>The upstream server closed the connection.</p><hr><center>nginx</center></body></html>`;

interface ChangeSetBody {
  changes: Array<{ id: string; environment: string }>;
}

/** An asynchronous provisioner that forgets after the final answer and has a proxy that sometimes answers 503. */
function forgetfulAsyncWithFlakyProxy(): Parameters<ReturnType<typeof mockProvisioners>['serve']>[0] {
  const operations = new Map<string, { body: ChangeSetBody; readsLeft: number }>();
  let reads = 0;
  const accept = async ({ request }: { request: Request }): Promise<Response> => {
    const body = (await request.json()) as ChangeSetBody;
    const id = randomUUID();
    operations.set(id, { body, readsLeft: 2 });
    return HttpResponse.json({ operationId: id }, { status: 202 });
  };
  return [
    http.post('*/plan', accept),
    http.post('*/apply', accept),
    http.get('*/operations/:id', ({ params }) => {
      reads += 1;
      if (reads % 4 === 0) return new HttpResponse(PROXY_PAGE.replace(/502 Bad Gateway/g, '503 Service Unavailable'), { status: 503, headers: { 'content-type': 'text/html' } });
      const operation = operations.get(String(params.id));
      if (!operation) return HttpResponse.json({ message: 'unknown operation' }, { status: 404 });
      if (operation.readsLeft-- > 0) return HttpResponse.json({ outcome: 'in_progress', description: 'Still working.', results: [] });
      operations.delete(String(params.id));
      return HttpResponse.json(succeededFor(operation.body.changes));
    }),
  ];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An asynchronous provisioner that keeps its operations; `unknown` answers a read of a UUID it never issued
 * (given how often that id was read before), and `read` may replace the answer to a read of its own.
 */
function asyncProvisioner(unknown: (readsBefore: number) => Response, read?: () => Response | undefined): Parameters<ReturnType<typeof mockProvisioners>['serve']>[0] {
  const operations = new Map<string, { body: ChangeSetBody; readsLeft: number }>();
  const unknownReads = new Map<string, number>();
  const accept = async ({ request }: { request: Request }): Promise<Response> => {
    const id = randomUUID();
    operations.set(id, { body: (await request.json()) as ChangeSetBody, readsLeft: 2 });
    return HttpResponse.json({ operationId: id }, { status: 202 });
  };
  return [
    http.post('*/plan', accept),
    http.post('*/apply', accept),
    http.get('*/operations/:id', ({ params }) => {
      const id = String(params.id);
      const operation = operations.get(id);
      if (!operation) {
        if (!UUID.test(id)) return HttpResponse.json({ message: 'not an operation id' }, { status: 400 });
        const before = unknownReads.get(id) ?? 0;
        unknownReads.set(id, before + 1);
        return unknown(before);
      }
      const replaced = read?.();
      if (replaced) return replaced;
      if (operation.readsLeft-- > 0) return HttpResponse.json({ outcome: 'in_progress', description: 'Still working.', results: [] });
      return HttpResponse.json(succeededFor(operation.body.changes));
    }),
  ];
}

const crash = (): Response => HttpResponse.json({ message: 'could not look up the operation' }, { status: 500 });
const notFound = (): Response => HttpResponse.json({ message: 'unknown operation' }, { status: 404 });

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const FAST = ['--poll-interval', 'PT0.1S', '--max-operation-duration', 'PT30S'];
// Against a provisioner that gives every plan and apply the same short answer, a few generated cases per
// property show what all of them would: the properties still run, fail and shrink.
const FEW_CASES = ['--max-examples', '4'];

describe('the CLI against provisioners written apart from the kit', () => {
  const mocks = mockProvisioners();

  it('passes a forgetful asynchronous provisioner behind a flaky proxy, with a warning and advice only', async () => {
    const server = await mocks.serve(forgetfulAsyncWithFlakyProxy());
    const run = await runCli(['run', '--url', server.url, ...FAST]);
    expect(run.exitCode, run.stdout).toBe(0);
    const failed = run.report!.rules.filter((r) => r.status === 'fail');
    expect(failed).toEqual([]);
    expect(run.report!.rules.find((r) => r.id === 'operation.final-retained')!.status).toBe('advice');
    expect(run.report!.rules.find((r) => r.id === 'operation.not-lost')!.status).toBe('pass');
  });

  it('shows a proxy HTML page on plan and apply as plain text and fails answer.status', async () => {
    const server = await mocks.serve([
      http.post('*/plan', () => new HttpResponse(PROXY_PAGE, { status: 502, headers: { 'content-type': 'text/html' } })),
      http.post('*/apply', () => new HttpResponse(PROXY_PAGE, { status: 502, headers: { 'content-type': 'text/html' } })),
    ]);
    const run = await runCli(['run', '--url', server.url, ...FAST, ...FEW_CASES]);
    expect(run.exitCode).toBe(1);
    expect(run.report!.rules.find((r) => r.id === 'answer.status')!.status).toBe('fail');
    expect(run.stdout).toContain('502 Bad Gateway');
    expect(run.stdout).toContain('The upstream server closed the connection.');
    expect(run.stdout).not.toContain('<h1>');
    expect(run.stdout).not.toContain('font-family');
    expect(run.stdout).toMatch(/curl .*\/plan/);
    expect(run.stdout).toMatch(/POST \/plan was answered 502 by the proxy in front of the provisioner \(nginx\) after/);
    expect(run.stdout).toContain('no plan or apply was answered 202: the proxy in front of the provisioner (nginx) answered all');
  });

  it("calls a JSON 503 the provisioner's own even when nginx in front of it stamped its Server header", async () => {
    const busy = (): Response => HttpResponse.json({ message: 'too busy' }, { status: 503, headers: { server: 'nginx/1.24.0' } });
    const server = await mocks.serve([http.post('*/plan', busy), http.post('*/apply', busy)]);
    const run = await runCli(['run', '--url', server.url, ...FAST, ...FEW_CASES]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/POST \/plan answered 503/);
    expect(run.stdout).toContain('the provisioner never answered 202');
    expect(run.stdout).not.toContain('proxy in front of the provisioner');
  });

  it('turns a huge, a malformed and a hanging answer into evidence without crashing', async () => {
    const server = await mocks.serve([
      http.post('*/plan', () => new HttpResponse('{"outcome": "succeeded", "results": [' + '1,'.repeat(3_000_000), { headers: { 'content-type': 'application/json' } })),
      http.post('*/apply', () => new HttpResponse('{"outcome": succeeded}', { headers: { 'content-type': 'application/json' } })),
      http.get('*/operations/:id', async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    ]);
    const run = await runCli(['run', '--url', server.url, '--answer-timeout', 'PT0.5S', ...FAST]);
    expect(run.exitCode).toBe(1);
    const answerJson = run.report!.rules.find((r) => r.id === 'answer.json')!;
    expect(answerJson.status).toBe('fail');
    expect(JSON.stringify(answerJson.evidence)).toMatch(/cut|truncated/i);
    // Every read hangs, its own operations' too (it has none): a hanging malformed id says nothing of the id.
    expect(run.report!.rules.find((r) => r.id === 'operation.malformed-id')).toMatchObject({
      status: 'not-exercised',
      message: expect.stringMatching(/^every read of a malformed id failed transiently, and no operation of the provisioner's own was read meanwhile/),
    });
  });

  it('fails operation.unknown-404 alone when unknown ids answer nothing but 500 while its own operations answer', async () => {
    const server = await mocks.serve(asyncProvisioner(crash));
    const run = await runCli(['run', '--url', server.url, '--no-properties', ...FAST]);
    expect(run.report!.rules.filter((r) => r.status === 'fail').map((r) => r.id), run.stdout).toEqual(['operation.unknown-404']);
    expect(run.report!.rules.find((r) => r.id === 'operation.unknown-404')!.message).toMatch(
      /^every read of an unknown id answered 500 \(8 reads over .*\), while reads of known operations answered 200: the control plane would wait out the deadline/,
    );
    expect(run.exitCode).toBe(1);
  });

  it('passes operation.unknown-404 when the first read of each unknown id answers 503 and the next ones 404', async () => {
    const server = await mocks.serve(asyncProvisioner((before) => (before === 0 ? new HttpResponse('busy', { status: 503 }) : notFound())));
    const run = await runCli(['run', '--url', server.url, '--no-properties', ...FAST]);
    expect(run.report!.rules.filter((r) => r.status === 'fail'), run.stdout).toEqual([]);
    expect(run.report!.rules.find((r) => r.id === 'operation.unknown-404')).toMatchObject({
      status: 'pass',
      message: '6 reads of 2 unknown ids, all answered 404; 2 more failed transiently and say nothing',
    });
    expect(run.exitCode).toBe(0);
  });

  it('leaves operation.unknown-404 not exercised when every read of anything answers 503', async () => {
    const server = await mocks.serve(asyncProvisioner(crash, () => new HttpResponse('down', { status: 503 })));
    const run = await runCli(['run', '--url', server.url, '--no-properties', '--poll-interval', 'PT0.1S', '--max-operation-duration', 'PT1S']);
    expect(run.report!.rules.find((r) => r.id === 'operation.unknown-404')).toMatchObject({
      status: 'not-exercised',
      message: expect.stringMatching(/^every read of an unknown id answered 500 \(8 reads over .*\), and /),
    });
    expect(run.report!.rules.find((r) => r.id === 'operation.within-max-duration')!.status).toBe('fail');
  });

  it('says unreachable with exit code 3 when nothing listens', async () => {
    const port = await closedPort();
    const run = await runCli(['run', '--url', `http://127.0.0.1:${port}`, ...FAST]);
    expect(run.exitCode).toBe(3);
    expect(run.report!.verdict).toBe('unreachable');
    expect(run.report!.rules.some((r) => r.status === 'pass')).toBe(false);
    expect(run.stdout).toMatch(/never answered/);
    // The run stops at its first wave: a few lines that say what was tried and what it got, no rule as failed.
    expect(run.report!.rules.every((r) => r.status === 'not-exercised')).toBe(true);
    const lines = `${run.stderr}${run.stdout}`.trim().split('\n');
    expect(lines.length, lines.join('\n')).toBeLessThanOrEqual(10);
    expect(lines.join('\n')).not.toMatch(/fail|shrinking|curl/);
    expect(run.stdout).toMatch(/every attempt got: refused/);
    expect(run.stdout).toMatch(/hint: nothing listens at 127\.0\.0\.1/);
  });

  it('says a port that speaks plain HTTP to https:// is unreachable, with the hint to try http://', async () => {
    const server = await mocks.serve(asyncProvisioner(() => HttpResponse.json({ message: 'unknown operation' }, { status: 404 })));
    const run = await runCli(['run', '--url', server.url.replace(/^http:/, 'https:'), ...FAST]);
    expect(run.exitCode).toBe(3);
    expect(run.stdout).toMatch(/every attempt got: .*the port speaks plain HTTP: try http:\/\//);
    expect(run.stdout).not.toMatch(/ssl3_record|openssl/i);
  });
});
