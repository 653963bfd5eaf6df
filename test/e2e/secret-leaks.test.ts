import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoingProvisioner, type EchoingProvisioner } from '../support/echoing-provisioner.js';
import { runCli, type CliRun } from './run-cli.js';

const TOKEN = 'tok-leak-4821';
const CUSTOM = 'custom-leak-6650';
const HEADERS = ['--header', `Authorization: Bearer ${TOKEN}`, '--header', `X-Custom-Auth: ${CUSTOM}`];
const LEAKS = [TOKEN, CUSTOM];
const QUICK = ['--no-properties', '--burst', '0', '--poll-interval', 'PT0.02S', '--max-operation-duration', 'PT60S'];

const folders: string[] = [];

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-leaks-'));
  folders.push(dir);
  return dir;
}

/** Every file under `dir`, folders of a bundle included, as text. */
function filesUnder(dir: string): Array<[string, string]> {
  return readdirSync(dir).flatMap((name): Array<[string, string]> => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [[path, readFileSync(path, 'utf8')]];
  });
}

/** Neither stream nor any file the command wrote holds a secret; `files` must not be empty when given. */
function expectNowhere(run: CliRun, dir?: string): void {
  for (const secret of LEAKS) {
    expect(run.stdout).not.toContain(secret);
    expect(run.stderr).not.toContain(secret);
  }
  if (dir === undefined) return;
  const files = filesUnder(dir);
  expect(files.length).toBeGreaterThan(0);
  for (const [path, text] of files) for (const secret of LEAKS) expect(text, path).not.toContain(secret);
}

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('kit errors quote what the user gave: masked like every other output', () => {
  it('a usage error that quotes a header\'s value, and --show-secrets shows it', async () => {
    const args = ['run', '--url', 'http://127.0.0.1:9', ...HEADERS, '--poll-interval', CUSTOM];
    const masked = await runCli(args, { withReport: false });
    expect(masked.exitCode).toBe(2);
    expect(masked.stderr).toContain('--poll-interval: "[redacted]" is not an ISO 8601 duration');
    expectNowhere(masked);
    const shown = await runCli([...args, '--show-secrets'], { withReport: false });
    expect(shown.exitCode).toBe(2);
    expect(shown.stderr).toContain(`--poll-interval: "${CUSTOM}"`);
  });

  it('a malformed --header, quoted whole', async () => {
    const run = await runCli(['run', '--reference', '--header', `Authorization Bearer ${TOKEN}`], { withReport: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--header: "[redacted]" is not of the form "Name: value"');
    expectNowhere(run);
  });

  it('a config error quoting a value of the config file\'s headers, filled in from the environment', async () => {
    const dir = folder();
    const config = join(dir, 'conformance.json');
    writeFileSync(config, JSON.stringify({ header: ['Authorization: Bearer ${SECRET_TOKEN}'], 'answer-timeout': '${SECRET_TOKEN}' }));
    const masked = await runCli(['run', '--reference', '--config', config], { withReport: false, env: { SECRET_TOKEN: TOKEN } });
    expect(masked.exitCode).toBe(2);
    expect(masked.stderr).toContain('--answer-timeout: "[redacted]"');
    expectNowhere(masked);
    writeFileSync(config, JSON.stringify({ header: ['Authorization: Bearer ${SECRET_TOKEN}'], 'answer-timeout': '${SECRET_TOKEN}', 'show-secrets': true }));
    const shown = await runCli(['run', '--reference', '--config', config], { withReport: false, env: { SECRET_TOKEN: TOKEN } });
    expect(shown.stderr).toContain(`--answer-timeout: "${TOKEN}"`);
  });

  it('a config file that is not JSON: the error says where, never quoting the file', async () => {
    const dir = folder();
    const config = join(dir, 'conformance.json');
    writeFileSync(config, `{"header": ${TOKEN}}`);
    const run = await runCli(['run', '--reference', '--config', config], { withReport: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('is not valid JSON: Unexpected token');
    // V8 would quote the file around the error: "header": tok-leak-48
    expect(run.stderr).not.toContain('tok-leak');
    expectNowhere(run);
  });

  it('the password of a URL the kit refuses', async () => {
    const run = await runCli(['run', '--url', `ftp://me:${TOKEN}@example.com/`], { withReport: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('ftp://me:[redacted]@example.com');
    expectNowhere(run);
  });

  it('a restart command whose line holds a header value and whose output echoes the token: in no stream and no file', async () => {
    const dir = folder();
    const restart = `echo "restarting with $SECRET_TOKEN"; echo "curl -H 'X-Custom-Auth: ${CUSTOM}' failed" >&2; exit 1`;
    const outputs = (out: string): string[] => [
      '--report', join(out, 'report.json'), '--junit', join(out, 'junit.xml'), '--html', join(out, 'report.html'),
      '--transcript', join(out, 'transcript.json'), '--bundle', join(out, 'bundle'),
    ];
    const args = ['run', '--reference', '--reference-work', 'PT0.3S', ...QUICK, ...HEADERS, '--restart-command', restart];
    const masked = await runCli([...args, ...outputs(dir)], { withReport: false, env: { SECRET_TOKEN: TOKEN } });
    expect(masked.exitCode).toBe(2);
    expect(masked.stdout).toContain('KIT_RESTART_FAILED');
    expect(masked.stdout).toContain('restarting with [redacted]');
    expectNowhere(masked, dir);

    const shownDir = folder();
    const shown = await runCli([...args, ...outputs(shownDir), '--show-secrets'], { withReport: false, env: { SECRET_TOKEN: TOKEN } });
    expect(shown.exitCode).toBe(2);
    expect(shown.stdout).toContain(`restarting with ${TOKEN}`);
    expect(readFileSync(join(shownDir, 'transcript.json'), 'utf8')).toContain(CUSTOM);
    // A bundle is masked whatever the flags say.
    for (const [path, text] of filesUnder(join(shownDir, 'bundle'))) for (const secret of LEAKS) expect(text, path).not.toContain(secret);
  });
});

describe('a registration document that holds a credential', () => {
  const registration = (dir: string, text: string): string => {
    const path = join(dir, 'registration.json');
    writeFileSync(path, text);
    return path;
  };

  it('is copied into the transcript and the bundle with the credential masked', async () => {
    const dir = folder();
    const reference = JSON.parse(readFileSync('fixtures/registrations/reference.json', 'utf8')) as Record<string, unknown>;
    const path = registration(folder(), JSON.stringify({ ...reference, auth: { apiToken: TOKEN } }));
    const args = ['run', '--reference', '--reference-work', 'PT0.3S', ...QUICK, '--registration', path];
    const files = ['--report', join(dir, 'report.json'), '--transcript', join(dir, 'transcript.json'), '--bundle', join(dir, 'bundle')];
    const run = await runCli([...args, ...files], { withReport: false });
    expect(run.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'bundle', 'registration.json'), 'utf8')).toContain('"apiToken":"[redacted]"');
    expectNowhere(run, dir);
    const verified = await runCli(['verify', join(dir, 'bundle')], { withReport: false });
    expect(verified.stdout).toContain('the bundle holds');
    expect(verified.exitCode).toBe(0);
  });

  it('that is not JSON is judged by check-registration without quoting it', async () => {
    const path = registration(folder(), `{"apiToken": ${TOKEN}}`);
    const check = await runCli(['check-registration', path], { withReport: false });
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain('does not parse as JSON: Unexpected token');
    expect(check.stdout).not.toContain('tok-leak');
    expectNowhere(check);
  });
});

describe('verify prints a transcript written with --show-secrets through the run\'s mask', () => {
  let provisioner: EchoingProvisioner;
  let transcript: string;
  let verifyDir: string;

  beforeAll(async () => {
    provisioner = await startEchoingProvisioner();
    transcript = join(folder(), 'transcript.json');
    const run = await runCli(['run', '--url', provisioner.url, ...QUICK, ...HEADERS, '--show-secrets', '--transcript', transcript], { withReport: false });
    expect(run.exitCode).toBe(1);
    verifyDir = folder();
  }, 120_000);

  afterAll(async () => {
    await provisioner.close();
  });

  it('holds the secrets in the transcript: the user asked for them', () => {
    const text = readFileSync(transcript, 'utf8');
    for (const secret of LEAKS) expect(text).toContain(secret);
  });

  it('verify FILE masks the header values of its requests and what the provisioner echoed, and writes no file', async () => {
    const run = await runCli(['verify', transcript], { withReport: false, cwd: verifyDir });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('judged again offline');
    expect(run.stdout).toContain("-H 'X-Custom-Auth: [redacted]'");
    expect(run.stdout).toContain('authorization=[redacted]');
    expectNowhere(run);
    expect(readdirSync(verifyDir)).toEqual([]);
  });

  it('verify FILE --show-secrets prints them', async () => {
    const run = await runCli(['verify', transcript, '--show-secrets'], { withReport: false });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(`X-Custom-Auth: ${CUSTOM}`);
    expect(run.stdout).toContain(`authorization=Bearer ${TOKEN}`);
  });

  it('verify FILE --secret masks a value the transcript cannot show to be secret', async () => {
    const host = new URL(provisioner.url).host;
    const plain = await runCli(['verify', transcript], { withReport: false });
    expect(plain.stdout).toContain(host);
    const run = await runCli(['verify', transcript, '--secret', host], { withReport: false });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).not.toContain(host);
    expectNowhere(run);
  });

  it('verify of a transcript that is not JSON says so without quoting it', async () => {
    const broken = join(folder(), 'broken.json');
    writeFileSync(broken, `{"format": ${TOKEN}`);
    const run = await runCli(['verify', broken], { withReport: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('cannot read');
    expect(run.stderr).not.toContain('tok-leak');
    expectNowhere(run);
  });

  it('verify DIR never quotes a file of the bundle that is not JSON', async () => {
    const bundle = folder();
    writeFileSync(join(bundle, 'manifest.json'), `{"token": ${TOKEN}}`);
    const run = await runCli(['verify', bundle], { withReport: false });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('manifest.json is not JSON: Unexpected token');
    expect(run.stdout).not.toContain('tok-leak');
    expectNowhere(run);
  });
});
