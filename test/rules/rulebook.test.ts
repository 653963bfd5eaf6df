import { describe, expect, it } from 'vitest';
import { RULE_IDS, RULES } from '../../src/rules/index.js';
import { isDriven, notDrivenYet } from '../../src/rules/judgement.js';
import type { Rule } from '../../src/rules/types.js';
import { context, TranscriptBuilder } from '../support/transcript-builder.js';
import { CONTRACT_RULES } from './contract-ids.js';

describe('the rulebook', () => {
  it('holds one rule object for every rule of the contract, with its level, and nothing else', () => {
    const rulebook = RULES.map((rule) => [rule.id, rule.level] as const);
    expect([...rulebook].sort()).toEqual([...CONTRACT_RULES].sort());
  });

  it('lists each id once', () => {
    expect(new Set(RULE_IDS).size).toBe(RULES.length);
    expect(new Set(CONTRACT_RULES.map(([id]) => id)).size).toBe(CONTRACT_RULES.length);
  });

  it('gives every rule a title, a sentence and a section', () => {
    for (const rule of RULES) {
      expect(rule.title.trim(), rule.id).not.toBe('');
      expect(rule.sentence.trim(), rule.id).not.toBe('');
      expect(rule.section, rule.id).toBeTruthy();
    }
  });

  it('reports a rule the kit does not drive yet as not exercised, never passed, and the catalog says so', () => {
    const pending: Rule = { id: 'example.pending', level: 'MUST', section: 'load', title: 'Pending', sentence: 'Pending.', judge: notDrivenYet };
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: {} });
    expect(pending.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'this version of the kit does not drive this situation yet' });
    expect(isDriven(pending)).toBe(false);
    expect(isDriven(RULES.find((rule) => rule.id === 'operation.final-stable')!)).toBe(true);
  });
});
