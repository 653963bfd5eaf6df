import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli } from './run-cli.js';

function registrationFile(doc: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pc-registration-')), 'registration.json');
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return file;
}

const VALID = { name: 'shop', url: 'https://provisioner.example', types: [{ kind: 'managed-resource', type: 'postgres' }] };

describe('check-registration', () => {
  it('passes a registration with a PT5M maxOperationDuration', async () => {
    const run = await runCli(['check-registration', registrationFile({ ...VALID, maxOperationDuration: 'PT5M' })], { withReport: false });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^pass {3}registration\.body/m);
    expect(run.stdout).toMatch(/^pass {3}registration\.max-operation-duration: .* PT5M/m);
  });

  it('fails a PT45M maxOperationDuration, naming the limit', async () => {
    const run = await runCli(['check-registration', registrationFile({ ...VALID, maxOperationDuration: 'PT45M' })], { withReport: false });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/^fail {3}registration\.max-operation-duration/m);
    expect(run.stdout).toContain('longer than PT30M');
  });

  it('fails a document without types, and one that is not JSON', async () => {
    const noTypes = await runCli(['check-registration', join(ROOT, 'fixtures', 'registrations', 'no-types.json')], { withReport: false });
    expect(noTypes.exitCode).toBe(1);
    expect(noTypes.stdout).toMatch(/^fail {3}registration\.body/m);
    const notJson = await runCli(['check-registration', registrationFile('{"name": ')], { withReport: false });
    expect(notJson.exitCode).toBe(1);
    expect(notJson.stdout).toContain('is not JSON');
  });

  it('is a one-line usage error, exit 2, for a file that cannot be read', async () => {
    const run = await runCli(['check-registration', join(tmpdir(), 'no-such-registration.json')], { withReport: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('ENOENT');
  });
});
