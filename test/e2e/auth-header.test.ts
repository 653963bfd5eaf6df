import { describe, expect, it } from 'vitest';
import { HttpResponse } from 'msw';
import { mockProvisioners, succeededFor, synchronousProvisioner } from '../support/mock-provisioners.js';
import { runCli } from './run-cli.js';

const TOKEN = 'Bearer t0ps3cret';

/** A synchronous provisioner behind authentication: 401 without the right Authorization header. */
function guarded(): ReturnType<typeof synchronousProvisioner> {
  const authorized = (request: Request): boolean => request.headers.get('authorization') === TOKEN;
  return synchronousProvisioner(async ({ request }) => {
    if (!authorized(request)) return HttpResponse.json({ error: 'unauthorized' }, { status: 401 });
    const body = (await request.json()) as { changes: Array<{ id: string; environment: string }> };
    return HttpResponse.json(succeededFor(body.changes));
  });
}

describe('--header for a provisioner behind authentication', () => {
  const mocks = mockProvisioners();

  it('sends the header with every request and passes', async () => {
    const server = await mocks.serve(guarded());
    const run = await runCli(['run', '--url', server.url, '--header', `Authorization: ${TOKEN}`, '--no-properties']);
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.report!.rules.find((r) => r.id === 'answer.status')!.status).toBe('pass');
  });

  it('without it fails answer.status, and never prints the secret', async () => {
    const server = await mocks.serve(guarded());
    const wrong = await runCli(['run', '--url', server.url, '--header', 'Authorization: Bearer wrong-but-secret', '--no-properties']);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.report!.rules.find((r) => r.id === 'answer.status')!.status).toBe('fail');
    expect(wrong.stdout).toContain('$PROVISIONER_AUTHORIZATION');
    expect(wrong.stdout).not.toContain('wrong-but-secret');
    expect(JSON.stringify(wrong.report)).not.toContain('wrong-but-secret');
  });
});
