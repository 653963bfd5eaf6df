import { describe, expect, it } from 'vitest';
import { DEFAULT_SHRINK_BUDGET, SLOW_CASE_MS, shrinkBudgetMs, shrinkWidthFor } from '../../suites/properties/shrink-budget.js';

describe('the shrinking budget', () => {
  it('is three of the longest case, never below its floor of two minutes, never past the time left', () => {
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 60_000, 600_000)).toBe(180_000);
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 20, 600_000)).toBe(120_000);
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 60_000, 50_000)).toBe(50_000);
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 60_000, -5)).toBe(0);
  });

  it('bounds shrinking against operations that never end to a few deadlines, not hundreds', () => {
    // Each candidate waits out maxOperationDuration (here PT20S): the budget holds six of them in turn, more at once.
    expect(shrinkBudgetMs(DEFAULT_SHRINK_BUDGET, 20_000, 600_000)).toBe(120_000);
    expect(shrinkBudgetMs({ lengths: 3, floorMs: 0 }, 20_000, 600_000)).toBe(60_000);
  });

  it('runs more candidates at once only once a case took seconds, and only for a property that says how many', () => {
    expect(shrinkWidthFor(16, 50, SLOW_CASE_MS)).toBe(50);
    expect(shrinkWidthFor(16, 50, 60_000)).toBe(50);
    expect(shrinkWidthFor(16, 50, SLOW_CASE_MS - 1)).toBe(16);
    expect(shrinkWidthFor(16, undefined, 60_000)).toBe(16);
    // Never fewer than the place's own width.
    expect(shrinkWidthFor(16, 4, 60_000)).toBe(16);
  });
});
