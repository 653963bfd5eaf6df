import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs from 'yargs';
import { runCommand } from '../../src/cli/run.js';
import { startReferenceProvisioner, type RunningReference } from '../../src/reference/index.js';
import { ROOT, runCli } from './run-cli.js';

const QUICK_RUN = ['--no-properties', '--reference-work', 'PT0.3S'];

function folderWith(name: string, content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-config-'));
  writeFileSync(join(dir, name), content);
  return dir;
}

describe('the certify profile', () => {
  it('is incomplete, exit 1, while a rule was not exercised, and lists what is missing', async () => {
    // The control plane's own poll interval is the profile's; a flag may still shorten it.
    const run = await runCli(['run', '--reference', '--profile', 'certify', '--poll-interval', 'PT0.2S', ...QUICK_RUN], { timeoutMs: 120_000 });
    expect(run.exitCode).toBe(1);
    expect(run.report?.verdict).toBe('incomplete');
    expect((run.report?.settings as { profile: string; strict: boolean }).profile).toBe('certify');
    expect((run.report?.settings as { profile: string; strict: boolean }).strict).toBe(true);
    const conclusions = run.report?.conclusions as string[];
    const missing = run.report!.rules.filter((rule) => rule.status === 'not-exercised').map((rule) => rule.id);
    expect(missing.length).toBeGreaterThan(0);
    const incomplete = conclusions.find((c) => c.startsWith('the certification is incomplete'));
    for (const id of missing) expect(incomplete).toContain(id);
    expect(run.stderr).toContain('profile certify');
  }, 150_000);

  it('refuses the flags that would make it judge less, naming the flag', async () => {
    for (const [flag, args] of [['--skip', ['--skip', 'answer.prompt']], ['--only', ['--only', 'answer.status']], ['--strict', ['--no-strict']]] as const) {
      const run = await runCli(['run', '--reference', '--profile', 'certify', ...args], { withReport: false });
      expect(run.exitCode).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`${flag}: `);
    }
  });

  it('needs a registration document', async () => {
    const run = await runCli(['run', '--url', 'http://127.0.0.1:9', '--profile', 'certify'], { withReport: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--registration: the certify profile needs the registration document');
  });
});

describe('a config file', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReferenceProvisioner({ mode: 'async', workMs: 300 });
  });
  afterAll(async () => {
    await reference.close();
  });

  it('found in the working folder, in YAML, runs against the URL its ${VAR} names', async () => {
    const dir = folderWith('provisioner-conformance.config.yaml', 'url: ${TARGET_URL}\nprofile: quick\nproperties: false\nheader:\n  - "Authorization: Bearer ${TARGET_TOKEN}"\n');
    const run = await runCli(['run'], { cwd: dir, env: { TARGET_URL: reference.url, TARGET_TOKEN: 'config-secret-991' } });
    expect(run.exitCode).toBe(0);
    expect((run.report?.target as { url: string }).url).toBe(reference.url);
    const settings = run.report?.settings as { profile: string; configFile: string; pollInterval: number };
    expect(settings.profile).toBe('quick');
    expect(settings.configFile).toBe(join(dir, 'provisioner-conformance.config.yaml'));
    expect(settings.pollInterval).toBe(200);
    expect(run.stdout + run.stderr).not.toContain('config-secret-991');
  }, 60_000);

  it('sits between the profile and the flags: flags win over the file, the file over the profile', async () => {
    const file = join(folderWith('c.json', JSON.stringify({ url: reference.url, profile: 'quick', properties: false, 'poll-interval': 'PT0.3S' })), 'c.json');
    const fromFile = await runCli(['run', '--config', file]);
    expect((fromFile.report?.settings as { pollInterval: number }).pollInterval).toBe(300);
    const fromFlag = await runCli(['run', '--config', file, '--poll-interval', 'PT0.4S', '--profile', 'ci']);
    expect((fromFlag.report?.settings as { pollInterval: number; profile: string }).pollInterval).toBe(400);
    expect((fromFlag.report?.settings as { pollInterval: number; profile: string }).profile).toBe('ci');
  }, 60_000);

  it('is a one-line error naming the file and the key when a key is unknown, mistyped or its variable unset', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['bad.yaml', 'url: http://127.0.0.1:9\npoll-intervl: PT1S\n', /bad\.yaml: unknown key "poll-intervl"/],
      ['typed.yaml', 'url: http://127.0.0.1:9\nstrict: "yes"\n', /typed\.yaml: key "strict" must be boolean/],
      ['unset.json', JSON.stringify({ url: '${PC_TEST_UNSET_VARIABLE}' }), /unset\.json: key "url" uses \$\{PC_TEST_UNSET_VARIABLE\}, but the environment variable PC_TEST_UNSET_VARIABLE is not set/],
      ['broken.yaml', 'url: [unclosed\n', /broken\.yaml: is not valid YAML/],
    ];
    for (const [name, content, message] of cases) {
      const run = await runCli(['run', '--config', join(folderWith(name, content), name)], { withReport: false });
      expect(run.exitCode, name).toBe(2);
      expect(run.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(run.stderr, name).toMatch(message);
    }
  });

  it('has a schema key for every run option, and no other', () => {
    const parser = yargs([]);
    const builder = runCommand({ exitCode: 0 }).builder as (y: typeof parser) => typeof parser;
    const keys = (builder(parser) as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key;
    const options = Object.keys(keys).filter((key) => !/[A-Z]/.test(key) && !['help', 'version', 'config', '$0', '_'].includes(key));
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'config.schema.json'), 'utf8')) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties).sort()).toEqual(options.sort());
  });
});
