import { afterEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { serveHandlers, type MockProvisioner } from '../support/msw-server.js';
import { runCli } from './run-cli.js';

const TOKEN = 'Bearer t0ps3cret';

/** A synchronous provisioner behind authentication: 401 without the right Authorization header. */
function guarded(): Parameters<typeof serveHandlers>[0] {
  const authorized = (request: Request): boolean => request.headers.get('authorization') === TOKEN;
  const answer = async ({ request }: { request: Request }): Promise<Response> => {
    if (!authorized(request)) return HttpResponse.json({ error: 'unauthorized' }, { status: 401 });
    const body = (await request.json()) as { changes: Array<{ id: string; environment: string }> };
    return HttpResponse.json({
      outcome: 'succeeded',
      description: 'Done.',
      results: body.changes.map((c) => ({ id: c.id, environment: c.environment, outcome: 'succeeded', description: 'Done.' })),
    });
  };
  return [
    http.post('*/plan', answer),
    http.post('*/apply', answer),
    http.get('*/operations/:id', () => HttpResponse.json({ error: 'unknown operation' }, { status: 404 })),
  ];
}

describe('--header for a provisioner behind authentication', () => {
  let server: MockProvisioner | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends the header with every request and passes', async () => {
    server = await serveHandlers(guarded());
    const run = await runCli(['run', '--url', server.url, '--header', `Authorization: ${TOKEN}`, '--no-properties']);
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.report!.rules.find((r) => r.id === 'answer.status')!.status).toBe('pass');
  });

  it('without it fails answer.status, and never prints the secret', async () => {
    server = await serveHandlers(guarded());
    const wrong = await runCli(['run', '--url', server.url, '--header', 'Authorization: Bearer wrong-but-secret', '--no-properties']);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.report!.rules.find((r) => r.id === 'answer.status')!.status).toBe('fail');
    expect(wrong.stdout).toContain('$PROVISIONER_AUTHORIZATION');
    expect(wrong.stdout).not.toContain('wrong-but-secret');
    expect(JSON.stringify(wrong.report)).not.toContain('wrong-but-secret');
  });
});
