import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBaseline } from '../../src/config/baseline.js';
import { applyBaseline, holdsOn } from '../../src/runner/baseline.js';
import type { RuleResult } from '../../src/rules/types.js';

function result(id: string, status: RuleResult['status']): RuleResult {
  return { id, level: 'MUST', title: id, sentence: id, status, message: `${id} was ${status}`, evidence: [] };
}

const ON_2027_01_10 = Date.parse('2027-01-10T12:00:00Z');

describe('applying a baseline', () => {
  const waiver = { rule: 'final.results-match-changes', reason: 'PROJ-12: results of removed changes', expires: '2027-01-10' };

  it('reports a listed failure waived, never pass, with the reason and the status it would have had', () => {
    const { rules, notes } = applyBaseline([result('final.results-match-changes', 'fail'), result('answer.status', 'fail')], [waiver], ON_2027_01_10);
    expect(rules[0]).toMatchObject({ status: 'waived', waiver: { reason: waiver.reason, expires: '2027-01-10', status: 'fail' } });
    expect(rules[1]!.status).toBe('fail');
    expect(notes).toEqual([]);
  });

  it('holds through its expiry day and not a day longer', () => {
    expect(holdsOn(waiver, Date.parse('2027-01-10T23:59:59Z'))).toBe(true);
    expect(holdsOn(waiver, Date.parse('2027-01-11T00:00:00Z'))).toBe(false);
    const { rules, notes } = applyBaseline([result('final.results-match-changes', 'fail')], [waiver], Date.parse('2027-01-11T08:00:00Z'));
    expect(rules[0]!.status).toBe('fail');
    expect(notes[0]).toContain('expired on 2027-01-10');
  });

  it('points out a waiver whose rule holds now, and never waives what was not judged or a kit error', () => {
    const { rules, notes } = applyBaseline([result('final.results-match-changes', 'pass')], [waiver], ON_2027_01_10);
    expect(rules[0]!.status).toBe('pass');
    expect(notes[0]).toContain('final.results-match-changes holds now');
    for (const status of ['not-exercised', 'skip', 'error'] as const) {
      expect(applyBaseline([result('final.results-match-changes', status)], [waiver], ON_2027_01_10).rules[0]!.status).toBe(status);
    }
  });

  it('waives warnings and advice too', () => {
    const warned = applyBaseline([result('final.results-match-changes', 'warn')], [waiver], ON_2027_01_10).rules[0]!;
    expect(warned).toMatchObject({ status: 'waived', waiver: { status: 'warn' } });
  });
});

describe('reading a baseline', () => {
  function file(name: string, content: string): string {
    const path = join(mkdtempSync(join(tmpdir(), 'pc-baseline-')), name);
    writeFileSync(path, content);
    return path;
  }

  it('reads YAML and JSON', () => {
    const yaml = loadBaseline(file('b.yaml', 'waivers:\n  - rule: answer.prompt\n    reason: slow on cold start\n    expires: "2027-02-01"\n'));
    expect(yaml.waivers).toEqual([{ rule: 'answer.prompt', reason: 'slow on cold start', expires: '2027-02-01' }]);
    expect(loadBaseline(file('b.json', JSON.stringify({ waivers: [] }))).waivers).toEqual([]);
  });

  it('is a one-line config error naming the file and what is wrong', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['unknown.json', JSON.stringify({ waivers: [{ rule: 'answer.nope', reason: 'x', expires: '2027-01-01' }] }), /waivers\.0\.rule "answer\.nope" is no rule id/],
      ['date.json', JSON.stringify({ waivers: [{ rule: 'answer.prompt', reason: 'x', expires: '2027-02-30' }] }), /waivers\.0\.expires "2027-02-30" is no date/],
      ['reason.json', JSON.stringify({ waivers: [{ rule: 'answer.prompt', expires: '2027-01-01' }] }), /must have required property 'reason'/],
      ['extra.json', JSON.stringify({ waivers: [], owner: 'me' }), /must NOT have additional properties \(owner\)/],
    ];
    for (const [name, content, message] of cases) {
      expect(() => loadBaseline(file(name, content))).toThrow(message);
      try {
        loadBaseline(file(name, content));
      } catch (error) {
        expect((error as Error & { code: string }).code).toBe('KIT_CONFIG');
        expect((error as Error).message).toContain(name);
        expect((error as Error).message.split('\n')).toHaveLength(1);
      }
    }
  });
});
