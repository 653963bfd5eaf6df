import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderJunit, xmlText } from '../../src/report/junit.js';
import { sampleOutcome, sampleOutcomeWithNotApplicable } from './outcome-fixture.js';

const SCHEMA = resolve(import.meta.dirname, '..', '..', 'schemas', 'junit.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;

function count(xml: string, pattern: RegExp): number {
  return xml.match(pattern)?.length ?? 0;
}

describe('the JUnit XML of a run', () => {
  const xml = renderJunit(sampleOutcome());

  it('makes a failed rule a failure with its evidence, and never passes what was not exercised', () => {
    expect(count(xml, /<failure /g)).toBe(1);
    expect(xml).toMatch(/<testcase name="operation\.no-in-progress-after-final"[^>]*>\s*<failure type="MUST" message="1 read sent after a final answer said in_progress">/);
    expect(xml).toContain('curl -sS -i');
    expect(xml).toMatch(/<testcase name="durability\.survives-restart"[^>]*>\s*<skipped\/>/);
    expect(xml).toMatch(/<testcase name="plan\.repeatable"[^>]*>\s*<skipped\/>/);
    expect(xml).toMatch(/<testcase name="answer\.status"[^>]*><\/testcase>/);
  });

  it('skips a rule that is not applicable, with the reason as its message', () => {
    const withNotApplicable = renderJunit(sampleOutcomeWithNotApplicable());
    expect(withNotApplicable).toMatch(
      /<testcase name="final\.body"[^>]*>\s*<skipped message="not applicable: all 183 plan and apply calls were answered 202: no 200 answer to judge"\/>/,
    );
    expect(withNotApplicable).toMatch(/<testsuite [^>]*name="rules\.final"[^>]*tests="1" failures="0" errors="0" skipped="1"/);
  });

  it('lists warnings and advice in the suite output without failing', () => {
    expect(xml).toMatch(/<system-out>[^<]*warn: operation\.transient-errors/);
    expect(xml).toMatch(/advice: operation\.404-identifiable/);
  });

  it('adds an error for a target that never answered', () => {
    const unreachable = renderJunit(sampleOutcome({ verdict: 'unreachable', exitCode: 3, conclusions: ['the provisioner never answered'] }));
    expect(unreachable).toMatch(/<error type="unreachable" message="the provisioner never answered">/);
  });

  it('escapes markup and drops characters XML cannot hold', () => {
    expect(xmlText('<a href="x">&\'\u0000\u001b[31m')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;[31m');
  });

  it.skipIf(!hasXmllint)('validates against the JUnit schema CI servers read', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pc-junit-')), 'junit.xml');
    writeFileSync(file, xml);
    expect(() => execFileSync('xmllint', ['--noout', '--schema', SCHEMA, file], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('the JUnit properties of a run', () => {
  it('carry the kit, its version, the profile and each property seed, and test names never carry a seed', () => {
    const outcome = sampleOutcome({ settings: { ...sampleOutcome().settings, profile: 'certify' } });
    const withProperty = { ...outcome, properties: [{ name: 'property/generated-plans', status: 'passed' as const, numRuns: 3, seed: 4242, interrupted: false, ruleIds: [], exchanges: [], notes: [], reruns: [], message: 'held' }] };
    const xml = renderJunit(withProperty);
    expect(xml).toContain('<property name="profile" value="certify"/>');
    expect(xml).toContain('<property name="kit.version" value="0.1.0"/>');
    expect(xml).toContain('<property name="seed.property/generated-plans" value="4242"/>');
    expect(xml).toMatch(/<testcase name="property\/generated-plans"/);
    expect(xml).not.toMatch(/<testcase name="[^"]*4242/);
  });

  it('makes an incomplete certification a failure that lists what was not exercised', () => {
    const xml = renderJunit(sampleOutcome({ verdict: 'incomplete', exitCode: 1 }));
    expect(xml).toMatch(/<testcase name="certification"[^>]*>\s*<failure type="incomplete" message="certification incomplete: not exercised: durability\.survives-restart">/);
  });

  it.skipIf(!hasXmllint)('stays valid against the JUnit schema with properties and an incomplete certification', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pc-junit-')), 'junit.xml');
    writeFileSync(file, renderJunit(sampleOutcome({ verdict: 'incomplete', exitCode: 1, settings: { ...sampleOutcome().settings, profile: 'certify' } })));
    expect(() => execFileSync('xmllint', ['--noout', '--schema', SCHEMA, file], { stdio: 'pipe' })).not.toThrow();
  });
});
