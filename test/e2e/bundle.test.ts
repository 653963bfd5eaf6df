import { beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliRun } from './run-cli.js';

interface Manifest {
  kit: { name: string; version: string };
  catalogSha256: string;
  verdict: string;
  files: Array<{ path: string; sha256: string; bytes: number }>;
}

const SECRET = 'Bearer bundle-secret-7731';

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/** A copy of the bundle to tamper with. */
function copyOf(dir: string): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'pc-bundle-copy-')), 'bundle');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Rewrites a file and its manifest entry, as someone covering their tracks would. */
function rewriteWithHash(dir: string, file: string, content: string): void {
  writeFileSync(join(dir, file), content);
  const manifest = readManifest(dir);
  const entry = manifest.files.find((f) => f.path === file)!;
  entry.sha256 = createHash('sha256').update(content).digest('hex');
  entry.bytes = Buffer.byteLength(content);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
}

describe('an evidence bundle', () => {
  let bundle: string;
  let run: CliRun;

  beforeAll(async () => {
    bundle = join(mkdtempSync(join(tmpdir(), 'pc-bundle-')), 'evidence');
    run = await runCli([
      'run', '--reference', '--reference-mode', 'async', '--reference-work', 'PT0.3S', '--poll-interval', 'PT0.1S',
      '--no-properties', '--header', `Authorization: ${SECRET}`, '--show-secrets', '--bundle', bundle,
    ]);
  }, 90_000);

  it('holds the reports, the transcript, the registration, the settings and a manifest of their hashes', () => {
    expect(run.exitCode).toBe(0);
    const manifest = readManifest(bundle);
    expect(manifest.kit.name).toBe('provisioner-conformance');
    expect(manifest.catalogSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.verdict).toBe('pass');
    expect(manifest.files.map((f) => f.path).sort()).toEqual(['junit.xml', 'registration.json', 'report.html', 'report.json', 'settings.json', 'transcript.json']);
    for (const file of manifest.files) {
      const content = readFileSync(join(bundle, file.path));
      expect(content.length).toBe(file.bytes);
      expect(createHash('sha256').update(content).digest('hex')).toBe(file.sha256);
    }
  });

  it('masks secrets in every file, even when the run was told to show them', () => {
    for (const file of readdirSync(bundle)) expect(readFileSync(join(bundle, file), 'utf8')).not.toContain('bundle-secret-7731');
    const settings = JSON.parse(readFileSync(join(bundle, 'settings.json'), 'utf8')) as { headers: Record<string, string> };
    expect(Object.values(settings.headers)).toEqual(['[redacted]']);
  });

  it('is accepted by verify as it was written', async () => {
    const verified = await runCli(['verify', bundle], { withReport: false });
    expect(verified.stdout).toContain('the bundle holds');
    expect(verified.exitCode).toBe(0);
  });

  it('is refused once any byte of the report changes, naming the file', async () => {
    const copy = copyOf(bundle);
    const report = readFileSync(join(copy, 'report.json'));
    report[report.length - 3] ^= 1;
    writeFileSync(join(copy, 'report.json'), report);
    const verified = await runCli(['verify', copy], { withReport: false });
    expect(verified.exitCode).toBe(1);
    expect(verified.stdout).toMatch(/FAIL {2}report\.json has changed since the run/);
  });

  it('is refused when a missing file was listed', async () => {
    const copy = copyOf(bundle);
    rmSync(join(copy, 'junit.xml'));
    const verified = await runCli(['verify', copy], { withReport: false });
    expect(verified.exitCode).toBe(1);
    expect(verified.stdout).toContain('junit.xml is listed in the manifest but missing');
  });

  it('is refused when its recorded verdict does not follow from its transcript, even with hashes made to match', async () => {
    const copy = copyOf(bundle);
    const report = JSON.parse(readFileSync(join(copy, 'report.json'), 'utf8')) as { verdict: string };
    rewriteWithHash(copy, 'report.json', JSON.stringify({ ...report, verdict: 'fail' }));
    const verified = await runCli(['verify', copy], { withReport: false });
    expect(verified.exitCode).toBe(1);
    expect(verified.stdout).toContain('report.json records verdict fail, but its transcript judged again gives pass');
  });

  it('is refused when the transcript was edited to hide or add a violation', async () => {
    const copy = copyOf(bundle);
    const text = readFileSync(join(copy, 'transcript.json'), 'utf8');
    // Every in_progress answer becomes succeeded with no results: the final answers no longer match the changes.
    const edited = text.replaceAll('\\"outcome\\":\\"in_progress\\"', '\\"outcome\\":\\"succeeded\\"');
    expect(edited).not.toBe(text);
    rewriteWithHash(copy, 'transcript.json', edited);
    const verified = await runCli(['verify', copy], { withReport: false });
    expect(verified.exitCode).toBe(1);
    expect(verified.stdout).toMatch(/report\.json records verdict pass, but its transcript judged again gives fail/);
  });
});
