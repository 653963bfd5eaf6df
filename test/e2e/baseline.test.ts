import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ROOT, runCli } from './run-cli.js';

const ajv = new Ajv2020.default({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateReport = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')) as object);

// The reference leaves out the last change's result: final.results-match-changes fails (MUST).
const BROKEN = ['run', '--reference', '--reference-mode', 'sync', '--reference-fault', 'missing-result', '--no-properties', '--reference-work', 'PT0.2S'];

function baselineFile(waivers: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pc-baseline-')), 'baseline.json');
  writeFileSync(file, JSON.stringify({ waivers }));
  return file;
}

const FAR = '2999-12-31';

describe('a baseline', () => {
  it('lets a known MUST failure through as waived, never pass, in every report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-baseline-run-'));
    const junit = join(dir, 'junit.xml');
    const html = join(dir, 'report.html');
    const file = baselineFile([{ rule: 'final.results-match-changes', reason: 'PROJ-7: last result lost', expires: FAR }]);
    const run = await runCli([...BROKEN, '--baseline', file, '--junit', junit, '--html', html]);
    expect(run.exitCode).toBe(0);
    expect(run.report?.verdict).toBe('pass');
    const rule = run.report!.rules.find((r) => r.id === 'final.results-match-changes') as unknown as { status: string; waiver: { reason: string; status: string } };
    expect(rule.status).toBe('waived');
    expect(rule.waiver).toMatchObject({ reason: 'PROJ-7: last result lost', status: 'fail' });
    expect((run.report!.summary as { waived: number }).waived).toBe(1);
    expect(validateReport(run.report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(run.stdout).toMatch(/≈ waived\s+final\.results-match-changes/);
    expect(run.stdout).toContain('PROJ-7: last result lost');
    expect(readFileSync(junit, 'utf8')).toMatch(/<testcase name="final\.results-match-changes"[^>]*>\s*<skipped message="waived fail until 2999-12-31: PROJ-7/);
    expect(readFileSync(html, 'utf8')).toContain('id="filter-waived"');
  }, 60_000);

  it('no longer waives once expired, and says so', async () => {
    const file = baselineFile([{ rule: 'final.results-match-changes', reason: 'PROJ-7', expires: '2020-01-01' }]);
    const run = await runCli([...BROKEN, '--baseline', file]);
    expect(run.exitCode).toBe(1);
    expect(run.report!.rules.find((r) => r.id === 'final.results-match-changes')!.status).toBe('fail');
    expect((run.report!.conclusions as string[]).join('\n')).toContain('waiver of final.results-match-changes expired on 2020-01-01');
  }, 60_000);

  it('points out a waiver whose rule holds now', async () => {
    const file = baselineFile([{ rule: 'answer.status', reason: 'PROJ-3', expires: FAR }]);
    const run = await runCli([...BROKEN, '--baseline', file]);
    expect(run.report!.rules.find((r) => r.id === 'answer.status')!.status).toBe('pass');
    expect((run.report!.conclusions as string[]).join('\n')).toContain('answer.status holds now');
  }, 60_000);

  it('is refused by the certify profile', async () => {
    const run = await runCli(['run', '--reference', '--profile', 'certify', '--baseline', baselineFile([])], { withReport: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--baseline: the certify profile waives nothing');
  });

  it('travels in a bundle, so that verify judges the run with it again', async () => {
    const bundle = join(mkdtempSync(join(tmpdir(), 'pc-baseline-bundle-')), 'b');
    const file = baselineFile([{ rule: 'final.results-match-changes', reason: 'PROJ-7', expires: FAR }]);
    const run = await runCli([...BROKEN, '--baseline', file, '--bundle', bundle]);
    expect(run.exitCode).toBe(0);
    const verified = await runCli(['verify', bundle], { withReport: false });
    expect(verified.stdout).toContain('the bundle holds');
    expect(verified.exitCode).toBe(0);
  }, 60_000);
});
