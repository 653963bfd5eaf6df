import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import schema from '../../schemas/report.schema.json' with { type: 'json' };
import { renderSummary } from '../../src/report/console.js';
import { buildJsonReport } from '../../src/report/json-report.js';
import { replayCommand } from '../../src/report/replay.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import { sampleOutcome } from './outcome-fixture.js';

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

function validate(report: unknown): unknown[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const check = ajv.compile(schema);
  check(report);
  return check.errors ?? [];
}

const PASSED: PropertyResult = {
  name: 'property/malformed-json',
  status: 'passed',
  numRuns: 40,
  seed: 77,
  interrupted: true,
  ruleIds: [],
  exchanges: [],
  notes: [],
  reruns: [],
  message: 'held over 40 cases before its time limit PT60S (given by --property-time-limit) stopped it',
};

function failed(status: 'failed' | 'flaky'): PropertyResult {
  return {
    name: 'property/generated-plans',
    status,
    numRuns: 31,
    seed: 1234,
    path: '4:0:2',
    interrupted: false,
    ruleIds: ['final.results-match-changes'],
    counterexample: '{\n  "changes": [\n    {\n      "id": "aaaaaaaaaaaaaaaaaaaaa",\n      "environment": "a",\n      "action": "created"\n    }\n  ]\n}',
    exchanges: [1],
    notes: ['final.results-match-changes: no result for "aaaaaaaaaaaaaaaaaaaaa" in "a"'],
    reruns: status === 'failed' ? [{ reproduced: true, exchanges: [1], notes: ['again'] }] : [1, 2, 3].map(() => ({ reproduced: false, exchanges: [2], notes: [] })),
    message: 'broke final.results-match-changes; replay with --property property/generated-plans --seed 1234 --path 4:0:2',
  };
}

describe('properties in the reports', () => {
  it('are in the JSON report with their exchanges and replay flags, valid by the strict schema', () => {
    const report = buildJsonReport(sampleOutcome({ properties: [PASSED, failed('failed')] }));
    expect(validate(report)).toEqual([]);
    expect(report.properties[1]).toMatchObject({ status: 'failed', seed: 1234, path: '4:0:2', replay: ['--property', 'property/generated-plans', '--seed', '1234', '--path', '4:0:2'] });
    expect(report.properties[1]!.exchanges.map((e) => e.seq)).toEqual([1]);
    expect(report.properties[1]!.exchanges[0]!.curl).toMatch(/^curl /);
    expect(validate({ ...report, properties: [{ ...report.properties[1], path: undefined }] })).not.toEqual([]);
  });

  it('are a section of the console summary: status, cases and seed, then what a failed one found and how to replay it', () => {
    const text = renderSummary(sampleOutcome({ properties: [PASSED, failed('failed')] }), {
      color: false,
      invocation: ['run', '--url', 'http://127.0.0.1:8080', '--seed', '5', '--max-examples=3'],
    });
    const section = text.slice(text.indexOf('Properties'));
    expect(section).toMatch(/✓ passed +property\/malformed-json +40 cases, seed 77 +\(stopped by its time limit\)/);
    expect(section).toMatch(/✗ failed +property\/generated-plans +31 cases, seed 1234, path 4:0:2/);
    expect(section).toContain('broke final.results-match-changes: A final answer holds exactly one result for each change');
    expect(section).toContain('"id": "aaaaaaaaaaaaaaaaaaaaa"');
    expect(section).toMatch(/#1 .*POST http:\/\/127\.0\.0\.1:8080\/apply/);
    expect(section).toMatch(/repeat: curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:8080\/apply'/);
    expect(section).toContain('re-run: the counterexample broke the same rule again on re-run 1');
    expect(section).toContain('replay: provisioner-conformance run --url http://127.0.0.1:8080 --property property/generated-plans --seed 1234 --path 4:0:2');
    expect(text.indexOf('Properties')).toBeLessThan(text.search(/^\d+ passed, /m));
  });

  it('leave a failed property\'s repeat and replay commands whole on a narrow terminal, in colour too: wrapped, they would paste as several commands', () => {
    const text = renderSummary(sampleOutcome({ properties: [failed('failed')] }), {
      color: true,
      columns: 60,
      invocation: ['run', '--url', 'http://127.0.0.1:8080', '--seed', '5'],
    });
    const rows = text.split('\n').map((row) => row.replace(/\u001b\[\d*m/g, ''));
    const repeat = rows.slice(rows.findIndex((row) => row.startsWith('Properties'))).find((row) => row.trim().startsWith('repeat: curl'));
    expect(repeat).toMatch(/^ *repeat: curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:8080\/apply' .*--data-binary/);
    expect(rows.find((row) => row.trim().startsWith('replay:'))).toBe('  replay: provisioner-conformance run --url http://127.0.0.1:8080 --property property/generated-plans --seed 1234 --path 4:0:2');
  });

  it('count candidates tried while shrinking apart, and never call a property that got no case passed', () => {
    const shrunk: PropertyResult = { ...failed('failed'), numRuns: 99, shrinkRuns: 79 };
    const starved: PropertyResult = { ...PASSED, name: 'property/model-based-runs', numRuns: 0, message: 'got no case' };
    const outcome = sampleOutcome({ properties: [shrunk, starved] });
    const section = renderSummary(outcome, { color: false, invocation: ['run'] }).split('Properties')[1]!;
    expect(section).toMatch(/✗ failed +property\/generated-plans +20 cases and 79 candidates tried while shrinking, seed 1234/);
    expect(section).toMatch(/– no case +property\/model-based-runs +0 cases, seed 77/);
    expect(section).not.toMatch(/passed +property\/model-based-runs/);
    const report = buildJsonReport(outcome);
    expect(validate(report)).toEqual([]);
    expect(report.properties.map((p) => [p.numRuns, p.shrinkRuns])).toEqual([[99, 79], [0, undefined]]);
  });

  it('say so when a failure did not repeat', () => {
    const text = renderSummary(sampleOutcome({ properties: [failed('flaky')] }), { color: false });
    expect(text).toContain('? flaky');
    expect(text).toContain('none of 3 re-runs broke the same rule: the failure did not repeat (flaky)');
    expect(text).toContain('replay: provisioner-conformance run … --property property/generated-plans --seed 1234 --path 4:0:2');
  });

  it('leave the summary alone when no property ran', () => {
    expect(renderSummary(sampleOutcome(), { color: false })).not.toContain('Properties');
  });
});

describe('replayCommand', () => {
  it('keeps the run\'s own arguments, quoted for the shell, and replaces the replay flags in either form', () => {
    const args = ['run', '--url', 'http://x', '--header', 'X-Tenant: a b', '--property', 'p', '--path=1:2', '--seed', '9'];
    expect(replayCommand(failed('failed'), args)).toBe(
      "provisioner-conformance run --url http://x --header 'X-Tenant: a b' --property property/generated-plans --seed 1234 --path 4:0:2",
    );
  });

  it('drops the run\'s outputs, so that replaying never overwrites the failing report', () => {
    const args = ['run', '--reference', '--report', 'fail.json', '--junit=j.xml', '--html', 'r.html', '--transcript', 't.json', '--bundle', 'b', '--record-change-sets', 'c', '--strict'];
    expect(replayCommand(failed('failed'), args)).toBe('provisioner-conformance run --reference --strict --property property/generated-plans --seed 1234 --path 4:0:2');
  });

  it('takes secret header values from PROVISIONER_* variables, as the curl commands do, unless secrets are shown', () => {
    const args = ['run', '--header', 'Authorization: Bearer t0k3n', '--header=X-Api-Key: k'];
    const hidden = replayCommand(failed('failed'), args);
    expect(hidden).toContain('--header "Authorization: $PROVISIONER_AUTHORIZATION" --header="X-Api-Key: $PROVISIONER_X_API_KEY"');
    expect(hidden).not.toContain('t0k3n');
    expect(replayCommand(failed('failed'), args, true)).toContain("--header 'Authorization: Bearer t0k3n'");
  });
});
