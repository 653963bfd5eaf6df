import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { runCommand } from '../../src/cli/run.js';
import { KitError, RULES, runConformance, UsageError } from '../../src/index.js';
import { optionsToArgs, RUN_FLAG_OPTIONS } from '../../src/api/options.js';

const QUICK = { reference: true, profile: 'quick', properties: false, referenceWork: 'PT0.2S', burst: 6 } as const;

describe('runConformance, the library entry', () => {
  it('runs the kit against the bundled reference and resolves to the report, every rule judged', async () => {
    const report = await runConformance(QUICK);
    expect(report.verdict).toBe('pass');
    expect(report.exitCode).toBe(0);
    expect(report.rules.map((rule) => rule.id)).toEqual(RULES.map((rule) => rule.id));
    expect(report.settings.profile).toBe('quick');
    expect(report.settings.pollInterval).toBe(200);
    expect(report.rules.filter((rule) => rule.status === 'fail')).toEqual([]);
  }, 120_000);

  it('resolves to a failing report for a broken provisioner, naming the rule', async () => {
    const report = await runConformance({ ...QUICK, referenceMode: 'sync', referenceFault: 'missing-result' });
    expect(report.verdict).toBe('fail');
    expect(report.rules.find((rule) => rule.id === 'final.results-match-changes')?.status).toBe('fail');
  }, 120_000);

  it('rejects bad options with a kit error naming the flag, never a report', async () => {
    await expect(runConformance({ reference: true, pollInterval: 'soon' })).rejects.toThrow(/--poll-interval/);
    await expect(runConformance({ reference: true, pollInterval: 'soon' })).rejects.toBeInstanceOf(KitError);
    await expect(runConformance({ reference: true, url: 'http://127.0.0.1:9' })).rejects.toBeInstanceOf(UsageError);
  });

  it('turns options into the run command\'s flags', () => {
    expect(optionsToArgs({ url: 'http://p', planOnly: true, properties: false, header: { Authorization: 'Bearer x' }, changeSet: ['a.json', 'b.json'], burst: 0 })).toEqual([
      '--url', 'http://p', '--change-set', 'a.json', '--change-set', 'b.json', '--header', 'Authorization: Bearer x', '--plan-only', '--burst', '0', '--no-properties',
    ]);
  });

  it('has an option for every run flag, and no other', () => {
    const parser = yargs([]);
    const builder = runCommand({ exitCode: 0 }).builder as (y: typeof parser) => typeof parser;
    const keys = (builder(parser) as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key;
    const flags = Object.keys(keys).filter((key) => !/[A-Z]/.test(key) && !['help', 'version', '$0', '_'].includes(key));
    const options = Object.keys(RUN_FLAG_OPTIONS).map((name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
    expect(options.sort()).toEqual(flags.sort());
  });
});
