import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RULES } from '../../src/rules/index.js';
import { ROOT, runCli } from './run-cli.js';

const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;

// A correct provisioner must not only pass: every judged rule must have been exercised, or the pass means nothing.
describe('a correct provisioner in mixed mode exercises every judged rule', () => {
  it('reports pass, never not-exercised, for every rule the kit judges', async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'pc-junit-')), 'junit.xml');
    const run = await runCli(['run', '--reference', '--reference-mode', 'mixed', '--reference-work', 'PT0.3S', '--poll-interval', 'PT0.1S', '--max-examples', '4', '--junit', junit]);
    expect(run.exitCode).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).not.toContain('<failure');
    expect(xml).toContain('<testcase name="operation.not-lost"');
    if (hasXmllint) execFileSync('xmllint', ['--noout', '--schema', join(ROOT, 'schemas', 'junit.xsd'), junit], { stdio: 'pipe' });
    // Every rule is judged, the restart included: the kit restarts its in-process reference itself.
    const judged = new Set(RULES.map((rule) => rule.id));
    const notPassing = run.report!.rules.filter((rule) => judged.has(rule.id) && rule.status !== 'pass');
    expect(notPassing.map((rule) => `${rule.id}: ${rule.status} (${rule.message})`)).toEqual([]);
    const unjudged = run.report!.rules.filter((rule) => !judged.has(rule.id));
    expect(unjudged.every((rule) => rule.status === 'not-exercised')).toBe(true);
  });

  it('says plainly that the rules about operations are not applicable when the provisioner never answers 202', async () => {
    const run = await runCli(['run', '--reference', '--reference-mode', 'sync', '--max-examples', '4']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('the provisioner answered every plan and apply call at once (200)');
    for (const id of ['accepted.body', 'operation.not-lost', 'operation.no-in-progress-after-final']) {
      expect(run.report!.rules.find((rule) => rule.id === id)).toMatchObject({
        status: 'not-applicable',
        message: expect.stringMatching(/^all \d+ plan and apply calls were answered 200 at once, the burst's \d+ included: /),
      });
    }
    expect(run.report!.summary.notApplicable).toBeGreaterThan(0);
  });
});
