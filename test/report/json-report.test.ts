import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import schema from '../../schemas/report.schema.json' with { type: 'json' };
import { buildJsonReport, type JsonReport } from '../../src/report/json-report.js';
import { writeJsonReport } from '../../src/report/write-json.js';
import { SecretMask } from '../../src/report/secret-mask.js';
import { HTML_PAGE_WITH_STYLE, sampleOutcome, sampleOutcomeWithNotApplicable } from './outcome-fixture.js';
import { OP_ID, T0 } from '../support/transcript-builder.js';

// Both are CommonJS modules: under NodeNext their class and function are the `default` of the module object.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

function expectValid(report: unknown): void {
  const validate = validator();
  const ok = validate(report);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

describe('buildJsonReport', () => {
  it('validates against the report schema', () => {
    expectValid(buildJsonReport(sampleOutcome()));
    expectValid(buildJsonReport(sampleOutcome({ verdict: 'unreachable', exitCode: 3, rules: [], conclusions: [], operations: [] })));
  });

  it('holds a rule that is not applicable, with its reason, and counts it', () => {
    const report = buildJsonReport(sampleOutcomeWithNotApplicable());
    expectValid(report);
    expect(report.rules.find((rule) => rule.id === 'final.body')).toMatchObject({
      status: 'not-applicable',
      message: 'all 183 plan and apply calls were answered 202: no 200 answer to judge',
    });
    expect(report.summary.notApplicable).toBe(1);
  });

  it('is strict: unknown fields and statuses are rejected', () => {
    const validate = validator();
    const report = buildJsonReport(sampleOutcome());
    expect(validate({ ...report, extra: 1 })).toBe(false);
    const badStatus = structuredClone(report) as unknown as { rules: Array<{ status: string }> };
    badStatus.rules[0]!.status = 'passed';
    expect(validate(badStatus)).toBe(false);
    expect(validate({ ...report, verdict: 'ok' })).toBe(false);
    const both = structuredClone(report);
    const timeout = both.rules[2]!.evidence[1]!.exchanges[0]!;
    expect(validate(both)).toBe(true);
    timeout.status = 200;
    expect(validate(both)).toBe(false);
    delete timeout.error;
    expect(validate(both)).toBe(false);
  });

  it('holds the run, its settings and counts', () => {
    const report = buildJsonReport(sampleOutcome());
    expect(report.kit).toEqual({ name: 'provisioner-conformance', version: '0.1.0' });
    expect(report.startedAt).toBe(new Date(T0).toISOString());
    expect(report.durationMs).toBe(12_500);
    expect(report.settings).toEqual({
      pollInterval: 1000,
      answerTimeout: 10_000,
      maxOperationDuration: { ms: 300_000, text: 'PT5M', source: 'flag' },
      changesPointer: '/changes',
      planOnly: false,
      strict: false,
      showSecrets: false,
      changeSets: ['shop-db'],
    });
    expect(report.exchanges.total).toBe(7);
    expect(report.exchanges.byTag).toEqual({ plan: 0, apply: 1, poll: 3, 'read-concurrent': 1, 'read-after-final': 1, 'read-unknown': 1, 'read-malformed': 0, 'malformed-json': 0, 'invalid-change-set': 0 });
    expect(report.rules.map((rule) => rule.status)).toEqual(['pass', 'fail', 'warn', 'advice', 'not-exercised', 'skip']);
    expect(report.rules[2]!.count).toBe(2);
  });

  it('shows each evidence exchange with its curl, and redacts secrets', () => {
    const report: JsonReport = buildJsonReport(sampleOutcome());
    const [final, after] = report.rules[1]!.evidence[0]!.exchanges;
    expect(final).toMatchObject({ seq: 4, tag: 'poll', probe: false, method: 'GET', status: 200, operationId: OP_ID, elapsedMs: 5 });
    expect(final!.responseBody).toContain('"token":"[redacted]"');
    expect(final!.responseBody).not.toContain('abc123');
    expect(after!.curl).toBe(`curl -sS -i 'http://127.0.0.1:8080/operations/${OP_ID}'`);
    const timeout = report.rules[2]!.evidence[1]!.exchanges[0]!;
    expect(timeout.error).toEqual({ kind: 'timeout', message: 'headers timeout' });
    expect(timeout.status).toBeUndefined();
    const proxied = report.rules[2]!.evidence[0]!.exchanges[0]!;
    expect(proxied.responseBody).toBe(HTML_PAGE_WITH_STYLE);
    expect(JSON.stringify(report)).not.toContain('abc123');
    expect(JSON.stringify(report)).not.toContain("it's-s3cret");
  });

  it('keeps secrets when asked to', () => {
    const outcome = sampleOutcome();
    outcome.settings.showSecrets = true;
    expect(JSON.stringify(buildJsonReport(outcome))).toContain('abc123');
  });

  it('cuts response bodies to 4000 characters and says so', () => {
    const outcome = sampleOutcome();
    const exchange = outcome.transcript.bySeq(3)!;
    exchange.response!.body = 'y'.repeat(9000);
    const shown = buildJsonReport(outcome).rules[2]!.evidence[0]!.exchanges[0]!;
    expect(shown.responseBody).toHaveLength(4000);
    expect(shown.truncated).toBe(true);
    expectValid(buildJsonReport(outcome));
  });
});

describe('writeJsonReport', () => {
  it('writes pretty JSON with a trailing newline, creating the directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'report-'));
    try {
      const path = join(dir, 'nested', 'deeper', 'report.json');
      await writeJsonReport(path, sampleOutcome(), new SecretMask());
      const text = await readFile(path, 'utf8');
      expect(text.endsWith('}\n')).toBe(true);
      expect(text).toContain('\n  "kit": {\n');
      expectValid(JSON.parse(text));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('streams the same bytes the whole report stringified at once makes, evidence and properties included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'report-'));
    try {
      const outcome = sampleOutcome();
      const withProperty = sampleOutcome({
        properties: [
          { name: 'property/generated-plans', status: 'failed', numRuns: 3, seed: 7, path: '1:0', interrupted: false, ruleIds: ['answer.status'], counterexample: '{}', exchanges: [1, 2, 999], notes: ['n'], reruns: [{ reproduced: true, exchanges: [2], notes: [] }], message: 'broke answer.status' },
        ],
      });
      for (const [name, run] of [['plain', outcome], ['property', withProperty]] as const) {
        const path = join(dir, `${name}.json`);
        await writeJsonReport(path, run, SecretMask.none());
        expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(buildJsonReport(run), null, 2)}\n`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
