import { describe, expect, it } from 'vitest';
import { waitingForText, type WaitedOperation } from '../../src/report/waiting-for.js';

const op = (n: number, suite?: string, label = 'plan shop-db'): WaitedOperation => ({ id: `${String(n).padStart(8, '0')}-9b7e-4c6d-a5f4-3e2b1d0ce2a1`, label, ...(suite !== undefined && { suite }) });

describe('what the run waits for', () => {
  it('names the only operation of a suite, counts the others, the biggest first, and says what comes next', () => {
    const operations = [op(1, 'scenario/plan-and-apply', 'apply postgres'), ...Array.from({ length: 11 }, (_, i) => op(10 + i, 'property/model-based-runs'))];
    expect(waitingForText(operations, [], ['restart'])).toBe('12 operations (11 of property/model-based-runs, scenario/plan-and-apply apply postgres 0000…e2a1), then the restart');
  });

  it('names at most three suites', () => {
    const operations = ['a', 'b', 'c', 'd', 'e'].flatMap((suite) => [op(1, `scenario/${suite}`), op(2, `scenario/${suite}`)]);
    expect(waitingForText(operations, [], [])).toBe('10 operations (2 of scenario/a, 2 of scenario/b, 2 of scenario/c, 2 more suites)');
  });

  it('without an operation in flight, the suites still running', () => {
    expect(waitingForText([], ['scenario/late-reads'], ['restart'])).toBe('scenario/late-reads (no operation in flight), then the restart');
    expect(waitingForText([], [], ['properties', 'restart'])).toBe('no operation in flight, then the properties and the restart');
  });

  it('operations no suite was told for count apart', () => {
    expect(waitingForText([op(1), op(2), op(3, 'scenario/burst')], [], [])).toBe('3 operations (2 of other suites, scenario/burst plan shop-db 0000…e2a1)');
  });
});
