import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpResponse } from 'msw';
import { mockProvisioners, succeededFor, synchronousProvisioner } from '../support/mock-provisioners.js';
import { runCli } from './run-cli.js';

interface Change {
  id: unknown;
  environment: unknown;
  action: unknown;
}

/** A synchronous provisioner whose format keeps the changes under /spec/changes and refuses anything else with 400. */
function nestedFormatProvisioner(): ReturnType<typeof synchronousProvisioner> {
  return synchronousProvisioner(async ({ request }) => {
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return HttpResponse.json({ error: 'not JSON' }, { status: 400 });
    }
    const changes = (body as { spec?: { changes?: unknown } } | null)?.spec?.changes;
    const valid =
      Array.isArray(changes) &&
      changes.length > 0 &&
      changes.every((c: Change) => typeof c?.id === 'string' && c.id !== '' && typeof c.environment === 'string' && c.environment !== '' && ['created', 'updated', 'removed'].includes(c.action as string)) &&
      new Set(changes.map((c: Change) => JSON.stringify([c.id, c.environment]))).size === changes.length;
    if (!valid) return HttpResponse.json({ error: 'not a change set' }, { status: 400 });
    return HttpResponse.json(succeededFor(changes as Change[]));
  });
}

describe('a provisioner whose format keeps the changes elsewhere (--changes-path)', () => {
  const mocks = mockProvisioners();

  it('passes, scenarios and properties alike, when the pointer says where the changes are', async () => {
    const server = await mocks.serve(nestedFormatProvisioner());
    const file = join(mkdtempSync(join(tmpdir(), 'pc-nested-')), 'nested.json');
    writeFileSync(file, JSON.stringify({ apiVersion: 'v2', spec: { kind: 'managed-resource', type: 'postgres', changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] } }));
    const run = await runCli(['run', '--url', server.url, '--change-set', file, '--changes-path', '/spec/changes', '--max-examples', '10']);
    expect(run.report!.rules.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.report!.rules.find((r) => r.id === 'final.results-match-changes')!.status).toBe('pass');
  });

  it('is a usage error naming --changes-path when the change set has nothing there', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pc-nested-')), 'flat.json');
    writeFileSync(file, JSON.stringify({ changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] }));
    const run = await runCli(['run', '--url', 'http://127.0.0.1:9', '--change-set', file, '--changes-path', '/spec/changes'], { withReport: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--changes-path');
  });
});
