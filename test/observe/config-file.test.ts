import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveObserveConfig } from '../../src/config/observe-config.js';
import { listenField } from '../../src/config/fields.js';
import { ConfigError, UsageError } from '../../src/errors.js';

function folderWith(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-observe-config-'));
  writeFileSync(join(dir, name), text);
  return dir;
}

const env = { TOKEN: 'a-token-from-the-environment' };

describe('observe: config files', () => {
  it('reads the keys shared with run and its observe section from the file in the working folder; the section wins over the shared keys', async () => {
    const cwd = folderWith(
      'provisioner-conformance.config.yaml',
      [
        'url: https://run-only.invalid', // run's alone: observe leaves it
        'report: shared.json',
        'junit: shared.xml',
        'strict: true',
        'only: [answer.status, accepted.body]',
        'max-operation-duration: PT2M',
        'header: ["Authorization: Bearer ${TOKEN}"]',
        'observe:',
        '  upstream: http://127.0.0.1:9',
        '  listen: 8089',
        '  report-every: PT5S',
        '  duration: PT1H',
        '  junit: observed.xml',
        '  bundle: evidence',
        '  record-change-sets: seen',
        '  secret: [another-secret-value]',
      ].join('\n'),
    );
    const config = await resolveObserveConfig({}, { env, cwd });
    expect(config.upstream).toBe('http://127.0.0.1:9');
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 8089 });
    expect(config.reportEveryMs).toBe(5000);
    expect(config.durationMs).toBe(3_600_000);
    expect(config.outputs).toEqual({ report: 'shared.json', junit: 'observed.xml', bundle: 'evidence' });
    expect(config.recordChangeSets).toBe('seen');
    expect(config.selection).toEqual({ strict: true, only: ['answer.status', 'accepted.body'], skip: undefined });
    expect(config.maxOperationDuration).toEqual({ ms: 120_000, text: 'PT2M', source: 'flag' });
    // The header values the control plane would send are masked in every output.
    expect(config.secrets).toEqual(['Bearer a-token-from-the-environment', 'another-secret-value']);
  });

  it('flags win over the file; secrets given both ways add up', async () => {
    const cwd = folderWith('provisioner-conformance.config.json', JSON.stringify({ report: 'file.json', observe: { upstream: 'http://127.0.0.1:9', 'report-every': 'PT5S', secret: ['secret-from-file'] } }));
    const config = await resolveObserveConfig({ report: 'flag.json', reportEvery: 'PT7S', strict: false, secret: ['secret-from-flag'], upstream: undefined }, { env, cwd });
    expect(config.outputs.report).toBe('flag.json');
    expect(config.reportEveryMs).toBe(7000);
    expect(config.upstream).toBe('http://127.0.0.1:9');
    expect(config.secrets).toEqual(['secret-from-file', 'secret-from-flag']);
  });

  it('--config names the file; without a file and without --upstream, --upstream is missing', async () => {
    const dir = folderWith('observe.yaml', 'observe:\n  upstream: http://127.0.0.1:9\n');
    const config = await resolveObserveConfig({ config: join(dir, 'observe.yaml') }, { env, cwd: tmpdir() });
    expect(config.upstream).toBe('http://127.0.0.1:9');
    const empty = mkdtempSync(join(tmpdir(), 'pc-observe-config-'));
    await expect(resolveObserveConfig({}, { env, cwd: empty })).rejects.toThrow(UsageError);
    await expect(resolveObserveConfig({}, { env, cwd: empty })).rejects.toThrow(/--upstream/);
  });

  it('an unknown key of the observe section, a bad value or an unset variable is a config error naming the key', async () => {
    const unknown = folderWith('provisioner-conformance.config.json', JSON.stringify({ observe: { upstream: 'http://127.0.0.1:9', 'poll-every': 'PT1S' } }));
    await expect(resolveObserveConfig({}, { env, cwd: unknown })).rejects.toThrow(ConfigError);
    await expect(resolveObserveConfig({}, { env, cwd: unknown })).rejects.toThrow(/unknown key "observe\.poll-every"/);
    const bad = folderWith('provisioner-conformance.config.json', JSON.stringify({ observe: { upstream: 'ftp://127.0.0.1:9' } }));
    await expect(resolveObserveConfig({}, { env, cwd: bad })).rejects.toThrow(/observe\.upstream/);
    const unset = folderWith('provisioner-conformance.config.json', JSON.stringify({ observe: { upstream: 'http://${NO_SUCH_VARIABLE}:9' } }));
    await expect(resolveObserveConfig({}, { env, cwd: unset })).rejects.toThrow(/NO_SUCH_VARIABLE is not set/);
    const badDuration = folderWith('provisioner-conformance.config.json', JSON.stringify({ observe: { upstream: 'http://127.0.0.1:9', duration: 'soon' } }));
    await expect(resolveObserveConfig({}, { env, cwd: badDuration })).rejects.toThrow(/--duration/);
  });
});

describe('observe: --listen', () => {
  it('reads HOST:PORT, :PORT, PORT and [v6]:PORT, a port alone on 127.0.0.1', () => {
    expect(listenField('0.0.0.0:8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(listenField(':8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(listenField('8089')).toEqual({ host: '127.0.0.1', port: 8089 });
    expect(listenField('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(() => listenField('127.0.0.1:70000')).toThrow(/--listen/);
    expect(() => listenField('localhost')).toThrow(/--listen/);
  });
});
