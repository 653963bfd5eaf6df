import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Expectation } from './expectations.js';
import { EXPECTATIONS } from './expectations.js';
import { argsFor } from './reference-args.js';
import type { CliRun } from './run-cli.js';
import { ROOT, runCli } from './run-cli.js';
import { FAULTS } from '../../src/reference/index.js';

const ajv = new Ajv2020.default({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateReport = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')) as object);

/** Every assertion of one row on the run it made. */
function expectRowHolds(expectation: Expectation, run: CliRun): void {
  const report = run.report;
  expect(report, run.stderr).toBeDefined();
  const statuses = (status: string): string[] => report!.rules.filter((r) => r.status === status).map((r) => r.id).sort();
  expect({ fail: statuses('fail'), warn: statuses('warn'), advice: statuses('advice') }).toEqual({
    fail: [...(expectation.fail ?? [])].sort(),
    warn: [...(expectation.warn ?? [])].sort(),
    advice: [...(expectation.advice ?? [])].sort(),
  });
  expect(run.exitCode).toBe(expectation.exitCode);
  expect(report!.exitCode).toBe(expectation.exitCode);
  expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
  expect(run.stdout).toMatch(/^\d+ passed, \d+ failed, \d+ warned, \d+ not exercised/m);
  const properties = (report!.properties ?? []) as Array<{ name: string; status: string; replay: string[] }>;
  if (expectation.failedProperty !== undefined) {
    expect(properties.filter((p) => p.status !== 'passed').map((p) => [p.name, p.status])).toEqual([[expectation.failedProperty, 'failed']]);
    const replay = new RegExp(`^  replay: provisioner-conformance run --reference .*--reference-fault ${expectation.fault} .* --property ${expectation.failedProperty} --seed 1 --path \\d+(:\\d+)*(@\\S+)?$`, 'm');
    expect(run.stdout).toMatch(replay);
  }
  if (expectation.fault === undefined) expect(properties.filter((p) => p.status !== 'passed')).toEqual([]);
  for (const id of expectation.fail ?? []) {
    const rule = report!.rules.find((r) => r.id === id)!;
    expect(rule.evidence.length).toBeGreaterThan(0);
    expect(run.stdout).toContain(id);
  }
}

describe('the CLI against the reference provisioner', () => {
  it('has an expectation for every fault of the reference', () => {
    const covered = new Set(EXPECTATIONS.map((e) => e.fault).filter(Boolean));
    expect(FAULTS.map((fault) => fault.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  it.concurrent.each(EXPECTATIONS.map((e) => [e.name, e] as const))('%s', async (_name, expectation) => {
    expectRowHolds(expectation, await runCli(argsFor(expectation)));
  });

});
