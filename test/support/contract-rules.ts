import { describe, expect, it } from 'vitest';
import type { Level, Rule } from '../../src/rules/types.js';

/** One rule of the contract as the contract fixes it: its id and level. */
export type ContractRule = readonly [id: string, level: Level];

/**
 * Holds a family's list of rules to the contract's rules of that family, written down from the contract in the
 * family's own test: the same ids with the same levels, in the order reports show them, no more, no fewer.
 * `test/rules/rulebook.test.ts` asks that every family's test call this.
 */
export function theContractsRules(family: readonly Rule[], contract: readonly ContractRule[]): void {
  describe("the family's rules", () => {
    it("are the contract's rules of the family, with their levels, in order", () => {
      expect(family.map((rule) => [rule.id, rule.level])).toEqual(contract.map(([id, level]) => [id, level]));
    });
  });
}
