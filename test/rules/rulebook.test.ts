import { describe, expect, it } from 'vitest';
import { RULE_IDS, RULES } from '../../src/rules/index.js';
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

});
