import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invocationSecrets, maskedError, maskedErrorText } from '../../src/cli/invocation-secrets.js';
import { UsageError } from '../../src/errors.js';
import { runConformance } from '../../src/api/run-conformance.js';

const TOKEN = 'tok-invoke-3390';
const folders: string[] = [];

function emptyFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-invocation-'));
  folders.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('the secrets of a command line, for the kit\'s own error messages', () => {
  const cwd = emptyFolder();

  it('knows every --header value, in each way yargs takes them, and the credential after its scheme', () => {
    const mask = invocationSecrets(['run', '--header', `Authorization: Bearer ${TOKEN}`, 'X-One: value-one', '--header=X-Two: value-two', '--url', 'http://h'], {}, cwd);
    expect(mask.text(`${TOKEN} value-one value-two`)).toBe('[redacted] [redacted] [redacted]');
  });

  it('knows a malformed header whole and its last word, and the password of --url and $PROVISIONER_URL', () => {
    const mask = invocationSecrets(['run', '--header', `Authorization Bearer ${TOKEN}`, '--url', 'ftp://me:url-pass-1@x'], { PROVISIONER_URL: 'http://u:env-pass-2@h' }, cwd);
    expect(mask.text(`"Authorization Bearer ${TOKEN}" ${TOKEN} url-pass-1 env-pass-2`)).toBe('"[redacted]" [redacted] [redacted] [redacted]');
  });

  it('knows the config file\'s headers, URL password and secret-looking values, even when the file does not hold', () => {
    const dir = emptyFolder();
    const config = join(dir, 'c.yaml');
    writeFileSync(config, 'header: ["X-Key: ${KEY}"]\nurl: http://u:conf-pass-3@h\napiToken: conf-token-4\nunknown-key: 1\n');
    const mask = invocationSecrets(['run', '--config', config], { KEY: 'conf-key-5' }, cwd);
    expect(mask.text('conf-key-5 conf-pass-3 conf-token-4')).toBe('[redacted] [redacted] [redacted]');
  });

  it('finds the config file in the working folder, as a run does', () => {
    const dir = emptyFolder();
    writeFileSync(join(dir, 'provisioner-conformance.config.json'), JSON.stringify({ header: [`Authorization: Bearer ${TOKEN}`] }));
    expect(invocationSecrets(['run'], {}, dir).text(TOKEN)).toBe('[redacted]');
  });

  it('knows verify\'s --secret values', () => {
    expect(invocationSecrets(['verify', 'x.json', '--secret', 'verify-secret-6'], {}, cwd).text('verify-secret-6')).toBe('[redacted]');
  });

  it('hides nothing with --show-secrets, the last such flag winning, or with the config file\'s show-secrets', () => {
    const header = ['--header', `Authorization: Bearer ${TOKEN}`];
    expect(invocationSecrets(['run', ...header, '--show-secrets'], {}, cwd).showsSecrets).toBe(true);
    expect(invocationSecrets(['run', ...header, '--show-secrets', '--no-show-secrets'], {}, cwd).showsSecrets).toBe(false);
    expect(invocationSecrets(['run', ...header, '--show-secrets=false'], {}, cwd).showsSecrets).toBe(false);
    expect(invocationSecrets(['run', ...header, '--show-secrets', 'false'], {}, cwd).showsSecrets).toBe(false);
    const dir = emptyFolder();
    writeFileSync(join(dir, 'provisioner-conformance.config.json'), JSON.stringify({ 'show-secrets': true }));
    expect(invocationSecrets(['run', ...header], {}, dir).showsSecrets).toBe(true);
    expect(invocationSecrets(['run', ...header, '--no-show-secrets'], {}, dir).showsSecrets).toBe(false);
  });
});

describe('an error\'s text as it leaves the kit', () => {
  const mask = invocationSecrets(['run', '--header', `Authorization: Bearer ${TOKEN}`], {}, emptyFolder());

  it('hides the known secrets, values under secret-looking keys of a quoted JSON, and URL passwords', () => {
    const crash = `TypeError: cannot read "x" of {"id":"a","password": "pw-in-answer-7","note":"${TOKEN}"} from https://u:url-pw-8@host`;
    expect(maskedErrorText(crash, mask)).toBe('TypeError: cannot read "x" of {"id":"a","password": "[redacted]","note":"[redacted]"} from https://u:[redacted]@host');
  });

  it('is left as it is with --show-secrets', () => {
    const text = `{"token": "${TOKEN}"}`;
    expect(maskedErrorText(text, invocationSecrets(['run', '--show-secrets'], {}, emptyFolder()))).toBe(text);
  });

  it('keeps the error\'s class and code, with its message and stack masked', () => {
    const error = new UsageError('--poll-interval', `"${TOKEN}" is not a duration`);
    const masked = maskedError(error, mask);
    expect(masked).toBeInstanceOf(UsageError);
    expect((masked as UsageError).code).toBe('KIT_USAGE');
    expect((masked as Error).message).toBe('--poll-interval: "[redacted]" is not a duration');
    expect((masked as Error).stack).not.toContain(TOKEN);
  });

  it('reaches a library caller masked: the rejection of runConformance quotes no header', async () => {
    const rejected = await runConformance({ url: 'http://127.0.0.1:9', header: { 'X-Custom-Auth': TOKEN }, pollInterval: TOKEN }).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(UsageError);
    expect((rejected as Error).message).toContain('--poll-interval: "[redacted]"');
    expect(String((rejected as Error).stack)).not.toContain(TOKEN);
  });
});
