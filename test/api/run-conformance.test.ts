import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { runCommand } from '../../src/cli/run.js';
import { KitError, RULES, runConformance, UsageError } from '../../src/index.js';
import { RUN_OPTION_NAMES } from '../../src/config/run-options.js';
import { ConfigError } from '../../src/errors.js';

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

  it('rejects an option a run does not know, naming it, before anything runs', async () => {
    const bogus = { bogusOption: 1 } as unknown as Parameters<typeof runConformance>[0];
    const rejected = await runConformance(bogus).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(UsageError);
    expect((rejected as UsageError).code).toBe('KIT_USAGE');
    expect((rejected as Error).message).toMatch(/^bogusOption: is not an option of a run \(options: url, reference, /);
  });

  it('rejects a value of the wrong kind by its option, as a command line would', async () => {
    const wrong = { reference: true, strict: 'yes' } as unknown as Parameters<typeof runConformance>[0];
    await expect(runConformance(wrong)).rejects.toThrow(/^--strict: "yes" is not a boolean/);
    await expect(runConformance({ reference: true, burst: -1 })).rejects.toThrow(/^--burst: "-1" is not a whole number from 0 to 1000/);
  });

  it('checks an output path before the run starts, naming the option', async () => {
    const rejected = await runConformance({ reference: true, report: '/dev/null/report.json' }).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(ConfigError);
    expect((rejected as Error).message).toBe('--report: /dev/null is a file, so /dev/null/report.json cannot be made under it');
  });

  it('has an option for every run flag, and no other', () => {
    const parser = yargs([]);
    const builder = runCommand({ exitCode: 0 }).builder as (y: typeof parser) => typeof parser;
    const keys = (builder(parser) as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key;
    const flags = Object.keys(keys).filter((key) => !/[A-Z]/.test(key) && !['help', 'version', '$0', '_'].includes(key));
    const options = [...RUN_OPTION_NAMES].map((name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
    expect(options.sort()).toEqual(flags.sort());
  });
});
