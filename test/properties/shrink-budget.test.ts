import { describe, expect, it } from 'vitest';
import { DEFAULT_SHRINK_BUDGET, shrinkBudgetMs } from '../../suites/properties/shrink-budget.js';

describe('the shrinking budget', () => {
  it('is three of the longest case, never below its floor, never past the time left', () => {
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 40_000, 600_000)).toBe(120_000);
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 20, 600_000)).toBe(30_000);
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 40_000, 50_000)).toBe(50_000);
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 40_000, -5)).toBe(0);
  });

  it('counts a case that waited out the deadline as one length: a few candidates, not hundreds', () => {
    // Operations that never end make each case wait out maxOperationDuration (here PT20S).
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 20_000, 600_000)).toBe(60_000);
  });
});
