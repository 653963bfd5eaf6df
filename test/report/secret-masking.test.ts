import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { runCommand, type RunArgs } from '../../src/cli/run.js';
import { givenOptions } from '../../src/cli/run-flags.js';
import { resolveRunConfig } from '../../src/config/run-config.js';
import { run } from '../../src/kit/run.js';
import type { ProgressStream } from '../../src/report/progress.js';
import { verifyBundle } from '../../src/runner/verify-bundle.js';
import { runConformance } from '../../src/api/run-conformance.js';
import { startEchoingProvisioner, type EchoingProvisioner } from '../support/echoing-provisioner.js';

const TOKEN = 'tok-echo-5512';
// A quote and a backslash: JSON, XML and HTML each spell this value their own way.
const API_KEY = 'key"with\\quote-7731';
const CUSTOM = 'custom-echo-9034';
const HEADERS = [`Authorization: Bearer ${TOKEN}`, `X-Api-Key: ${API_KEY}`, `X-Custom-Auth: ${CUSTOM}`];
/** What no output may hold: the token, the end of the key (in any escaping), the custom header's value. */
const LEAKS = [TOKEN, 'quote-7731', CUSTOM];

class Capture extends Writable {
  text = '';
  readonly isTTY = false;
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

interface Outputs {
  stdout: string;
  stderr: string;
  file(name: string): string;
  bundle: string;
}

async function parse(argv: string[]): Promise<RunArgs> {
  let parsed: RunArgs | undefined;
  const command = runCommand({ exitCode: 0 });
  await yargs(['run', ...argv]).command({ ...command, handler: (args) => void (parsed = args) }).strict().exitProcess(false).parseAsync();
  return parsed!;
}

async function runAgainst(provisioner: EchoingProvisioner, extra: string[]): Promise<Outputs> {
  const dir = mkdtempSync(join(tmpdir(), 'pc-masking-'));
  const argv = [
    '--url', provisioner.url, ...HEADERS.flatMap((header) => ['--header', header]), '--no-properties', '--burst', '0',
    '--poll-interval', 'PT0.02S', '--max-operation-duration', 'PT60S',
    '--report', join(dir, 'report.json'), '--junit', join(dir, 'junit.xml'), '--html', join(dir, 'report.html'),
    '--transcript', join(dir, 'transcript.json'), '--bundle', join(dir, 'bundle'), ...extra,
  ];
  const stdout = new Capture();
  const stderr = new Capture();
  const config = await resolveRunConfig({ options: givenOptions(await parse(argv)), env: process.env, cwd: process.cwd() });
  await run(config, { console: true, stdout: stdout as ProgressStream, stderr: stderr as ProgressStream });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const bundleDir = join(dir, 'bundle');
  return {
    stdout: stdout.text,
    stderr: stderr.text,
    file: (name) => readFileSync(join(dir, name), 'utf8'),
    bundle: bundleDir,
  };
}

const cleanups: Array<() => void> = [];

function expectNoLeak(text: string): void {
  expect(text.length).toBeGreaterThan(0);
  for (const secret of LEAKS) expect(text).not.toContain(secret);
}

function curlLines(text: string): string[] {
  return text.split('\n').filter((line) => line.includes('curl -sS'));
}

describe('secrets a provisioner echoes, in every output of a run', () => {
  let provisioner: EchoingProvisioner;
  let masked: Outputs;
  let shown: Outputs;

  beforeAll(async () => {
    provisioner = await startEchoingProvisioner();
    masked = await runAgainst(provisioner, []);
    shown = await runAgainst(provisioner, ['--show-secrets']);
  }, 120_000);

  afterAll(async () => {
    await provisioner.close();
    for (const cleanup of cleanups) cleanup();
  });

  it('are hidden in the progress lines, and shown with --show-secrets', () => {
    expect(masked.stderr).toContain('in_progress: working as authorization=[redacted]');
    expectNoLeak(masked.stderr);
    expect(shown.stderr).toContain(`authorization=Bearer ${TOKEN}`);
  });

  it('are hidden in the console report', () => {
    expectNoLeak(masked.stdout);
    expect(masked.stdout).toContain('[redacted]');
    expect(shown.stdout).toContain(TOKEN);
  });

  it('are hidden in the curl lines, a custom header\'s value too', () => {
    const lines = curlLines(masked.stdout);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expectNoLeak(line);
    expect(lines.join('\n')).toContain("-H 'X-Custom-Auth: [redacted]'");
    expect(curlLines(shown.stdout).join('\n')).toContain(`X-Custom-Auth: ${CUSTOM}`);
  });

  it('are hidden in the JSON report, which stays valid JSON', () => {
    const text = masked.file('report.json');
    expectNoLeak(text);
    expect(JSON.stringify(JSON.parse(text))).toContain('[redacted]');
    expect(shown.file('report.json')).toContain(TOKEN);
    expect(JSON.stringify(JSON.parse(shown.file('report.json')))).toContain(JSON.stringify(API_KEY).slice(1, -1));
  });

  it('are hidden in the JUnit XML', () => {
    expectNoLeak(masked.file('junit.xml'));
    expect(shown.file('junit.xml')).toContain(TOKEN);
  });

  it('are hidden in the HTML report', () => {
    expectNoLeak(masked.file('report.html'));
    expect(shown.file('report.html')).toContain(TOKEN);
  });

  it('are hidden in the transcript file, with a numbered placeholder per secret', () => {
    const text = masked.file('transcript.json');
    expectNoLeak(text);
    expect(text).toMatch(/\[redacted #\d+\]/);
    expect(shown.file('transcript.json')).toContain(TOKEN);
  });

  it('are hidden in every file of a bundle, even with --show-secrets, and the bundle still verifies', async () => {
    for (const outputs of [masked, shown]) {
      for (const file of readdirSync(outputs.bundle)) expectNoLeak(readFileSync(join(outputs.bundle, file), 'utf8'));
    }
    const check = await verifyBundle(masked.bundle);
    expect(check.problems).toEqual([]);
    expect(check.judgedVerdict).toBe(check.recordedVerdict);
  });

  it('are hidden in the report the library resolves to, headers given as a map', async () => {
    const report = await runConformance({
      url: provisioner.url,
      header: { Authorization: `Bearer ${TOKEN}`, 'X-Api-Key': API_KEY, 'X-Custom-Auth': CUSTOM },
      properties: false,
      burst: 0,
      pollInterval: 'PT0.02S',
    });
    const text = JSON.stringify(report);
    expectNoLeak(text);
    expect(text).toContain('[redacted]');
  }, 60_000);
});
