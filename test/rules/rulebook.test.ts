import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  brokenStatus,
  notRestartedNote,
  registrationRuleIds,
  RULE_IDS,
  RULES,
  ruleIdsJudgedAcrossTraffic,
  ruleIdsJudgedInCases,
  ruleIdsJudging,
} from '../../src/rules/index.js';
import type { Rule, RuleSection } from '../../src/rules/types.js';

const CATALOG = join(import.meta.dirname, '..', '..', 'src', 'rules', 'catalog');

describe('the rulebook', () => {
  // Each family's test holds its list to the contract's rules of the family (theContractsRules): the contract's
  // ids are written down once, beside the tests of the rules they name.
  it("is its families' rules, every family's list held to the contract by the family's own test", async () => {
    const fromFamilies: string[] = [];
    for (const file of readdirSync(CATALOG).filter((name) => name.endsWith('.ts'))) {
      const family = (await import(pathToFileURL(join(CATALOG, file)).href)) as { RULES: readonly Rule[] };
      fromFamilies.push(...family.RULES.map((rule) => rule.id));
      const test = readFileSync(join(import.meta.dirname, file.replace(/\.ts$/, '.test.ts')), 'utf8');
      expect(test, `test/rules/${file.replace(/\.ts$/, '.test.ts')} holds the family to the contract`).toMatch(/^theContractsRules\(RULES, \[$/m);
    }
    expect([...RULE_IDS].sort()).toEqual(fromFamilies.sort());
  });

  it('lists each id once', () => {
    expect(new Set(RULE_IDS).size).toBe(RULES.length);
  });

  it('gives every rule a title, a sentence and a section', () => {
    for (const rule of RULES) {
      expect(rule.title.trim(), rule.id).not.toBe('');
      expect(rule.sentence.trim(), rule.id).not.toBe('');
      expect(rule.section, rule.id).toBeTruthy();
    }
  });
});

describe('the rulebook as its consumers read it', () => {
  const ids = (rules: readonly Rule[]): string[] => rules.map((rule) => rule.id);
  const inSections = (...sections: RuleSection[]): Rule[] => RULES.filter((rule) => sections.includes(rule.section));

  it('judges in generated change sets and model-based cases every rule about answers, final answers and reads but timing ones', () => {
    const everyCall = ids(inSections('answers', 'final', 'reads').filter((rule) => !rule.timing));
    expect(ruleIdsJudgedInCases('generated-change-set')).toEqual(everyCall);
    expect(ruleIdsJudgedInCases('model-based')).toEqual(everyCall);
    expect(ruleIdsJudgedInCases('generated-change-set', 'generated-repeat')).toEqual(ids(RULES.filter((rule) => everyCall.includes(rule.id) || rule.section === 'repeats')));
  });

  it('judges each kind of bad body by the one rule about it', () => {
    expect([...ruleIdsJudgedInCases('malformed-json'), ...ruleIdsJudgedInCases('invalid-change-set')]).toEqual(ids(inSections('bad-input')));
    expect(ruleIdsJudgedInCases('malformed-json')).toHaveLength(1);
  });

  it('judges the registration document by the rules of its section', () => {
    expect(registrationRuleIds()).toEqual(ids(inSections('registration')));
  });

  it('judges across observed traffic only the rule that operationIds are unique', () => {
    expect(ruleIdsJudgedAcrossTraffic()).toEqual(['accepted.operation-id-unique']);
  });

  it('judges a read after the final answer by the rules about reads and final bodies that look at it', () => {
    const judging = ruleIdsJudging('read-after-final');
    // The rules whose whole subject is what a read after the final answer got, and some that judge any read's body.
    expect(judging).toEqual(expect.arrayContaining([
      'operation.no-in-progress-after-final',
      'operation.final-stable',
      'operation.final-retained',
      'operation.body',
      'final.result-shape',
    ]));
    // Only rules about reads and final answers look at it; a rule about the read that first gives the final
    // answer, or about the answer to a POST alone, does not.
    for (const rule of RULES.filter((r) => judging.includes(r.id))) expect(['reads', 'final'], rule.id).toContain(rule.section);
    expect(judging).not.toContain('operation.status');
    expect(judging).not.toContain('final.body');
  });

  it('names the rules a run without a restart leaves unjudged', () => {
    expect(notRestartedNote()).toBe(
      'the provisioner was not restarted, so durability.survives-restart was not judged: give --restart-command CMD to restart the provisioner during the run',
    );
    expect(notRestartedNote(['durability.survives-restart', 'durability.other'])).toBe(
      'the provisioner was not restarted, so durability.survives-restart and durability.other were not judged: give --restart-command CMD to restart the provisioner during the run',
    );
  });
});

describe('the status of a broken rule', () => {
  it('fails a MUST, warns for a SHOULD unless strict, and keeps advice as advice', () => {
    expect([brokenStatus('MUST', false), brokenStatus('MUST', true)]).toEqual(['fail', 'fail']);
    expect([brokenStatus('SHOULD', false), brokenStatus('SHOULD', true)]).toEqual(['warn', 'fail']);
    expect([brokenStatus('ADVICE', false), brokenStatus('ADVICE', true)]).toEqual(['advice', 'advice']);
  });
});
