import { describe, expect, it } from 'vitest';
import { budgetShare, isShared, propertyTimeLimitAt } from '../../src/core/time-budget.js';

describe('the property time limit the run\'s budget gives', () => {
  const RUN = { text: 'PT10M', ms: 600_000 };
  const GIVEN = { text: 'PT1M', ms: 60_000, origin: { source: 'given' as const } };

  it('is what remains of the run\'s limit when the properties start, said to be what it left', () => {
    expect(propertyTimeLimitAt({ run: RUN }, 600_000)).toEqual({ text: 'PT10M', ms: 600_000, origin: { source: 'budget' } });
    expect(propertyTimeLimitAt({ run: RUN }, 538_000.7)).toEqual({ text: 'PT8M58S', ms: 538_000, origin: { source: 'budget' } });
  });

  it('is the one the configuration decided whenever there is one', () => {
    expect(propertyTimeLimitAt({ run: RUN, property: GIVEN }, 238_000)).toBe(GIVEN);
    expect(propertyTimeLimitAt({ property: GIVEN }, undefined)).toBe(GIVEN);
  });

  it('is refused to a run that has neither a time limit nor a property time limit', () => {
    expect(() => propertyTimeLimitAt({}, undefined)).toThrow(/time limit/);
  });

  it('is shared by the properties that take turns only when it is what the run\'s limit left', () => {
    expect(isShared(budgetShare(60_000))).toBe(true);
    expect(isShared(GIVEN)).toBe(false);
    expect(isShared({ text: 'PT3M', ms: 180_000, origin: { source: 'derived', chain: 2, maxOperationDuration: { text: 'PT1M', ms: 60_000, source: 'registration' } } })).toBe(false);
  });

  it('never reaches zero: a property with nothing left starts and stops at once', () => {
    expect(budgetShare(0).ms).toBe(1);
    expect(budgetShare(-5).ms).toBe(1);
  });
});
