import { describe, expect, it } from 'vitest';
import { BudgetSpent } from '../../src/core/budget-spent.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import type { SuiteProgress } from '../../src/core/suite-progress.js';
import { endSummary, trackedProperty, trackedSuite } from '../../src/runner/suite-tracking.js';
import type { PropertyContext, PropertySuite } from '../../suites/properties/property.js';
import type { Suite, SuiteContext } from '../../suites/suite.js';
import { givenTimeLimit } from '../support/time-limit.js';

class Recorder implements SuiteProgress {
  readonly events: string[] = [];
  suiteStarted(name: string, total?: number): void {
    this.events.push(`started ${name} ${total ?? '?'}`);
  }
  casesDone(name: string, done: number, total?: number, shrinking?: number): void {
    this.events.push(`done ${name} ${done}/${total ?? '?'}${shrinking === undefined ? '' : ` shrinking ${shrinking}`}`);
  }
  suiteEnded(name: string, summary: string): void {
    this.events.push(`ended ${name}: ${summary}`);
  }
}

function contextWith(signal: AbortSignal): SuiteContext {
  return { signal, changeSets: [], planOnly: false } as unknown as SuiteContext;
}

const twoCases: Suite = {
  name: 'scenario/two',
  cases: () => 3,
  async run(context) {
    context.caseEnded?.();
    context.caseEnded?.();
  },
};

describe('a tracked suite', () => {
  it('tells the progress when it starts, as each case ends, and how it ended', async () => {
    const progress = new Recorder();
    await trackedSuite(twoCases, progress).run(contextWith(new AbortController().signal));
    expect(progress.events).toEqual(['started scenario/two 3', 'done scenario/two 1/3', 'done scenario/two 2/3', 'ended scenario/two: 2 of 3 cases']);
  });

  it('says it was stopped by the time limit, or by the user, and still ends when the suite throws', async () => {
    const budget = new AbortController();
    budget.abort(new BudgetSpent('PT1M'));
    expect(endSummary(1, 3, budget.signal)).toBe('1 of 3 cases; stopped when the time limit was spent');
    const user = new AbortController();
    user.abort();
    expect(endSummary(1, undefined, user.signal)).toBe('1 case; stopped');
    const progress = new Recorder();
    const throwing: Suite = { name: 'scenario/throws', run: () => Promise.reject(new Error('kit bug')) };
    await expect(trackedSuite(throwing, progress).run(contextWith(new AbortController().signal))).rejects.toThrow('kit bug');
    expect(progress.events).toEqual(['started scenario/throws ?', 'ended scenario/throws: 0 cases']);
  });
});

describe('a tracked property', () => {
  it('counts the cases checkProperty reports and ends with the property\'s message', async () => {
    const result = { name: 'property/p', message: 'held over 2 cases' } as PropertyResult;
    const suite: PropertySuite = {
      name: 'property/p',
      defaultMaxExamples: 5,
      applies: () => true,
      async run(context) {
        context.caseEnded?.();
        context.caseEnded?.();
        return result;
      },
    };
    const progress = new Recorder();
    const tracked = trackedProperty(suite, progress, 5);
    expect(tracked.applies({ maxExamples: 5, timeLimit: givenTimeLimit(1), allowApplyGenerated: false }, false)).toBe(true);
    await expect(tracked.run(contextWith(new AbortController().signal) as PropertyContext)).resolves.toBe(result);
    expect(progress.events).toEqual(['started property/p 5', 'done property/p 1/5', 'done property/p 2/5', 'ended property/p: 2 of 5 cases: held over 2 cases']);
  });

  it('counts the candidates tried while shrinking apart from the generated cases', async () => {
    const result = { name: 'property/p', message: 'broke answer.status' } as PropertyResult;
    const suite: PropertySuite = {
      name: 'property/p',
      defaultMaxExamples: 2,
      applies: () => false,
      async run(context) {
        context.caseEnded?.({ shrinking: false });
        context.caseEnded?.({ shrinking: false });
        context.caseEnded?.({ shrinking: true });
        return result;
      },
    };
    const progress = new Recorder();
    await trackedProperty(suite, progress, 2).run(contextWith(new AbortController().signal) as PropertyContext);
    expect(progress.events).toEqual([
      'started property/p 2',
      'done property/p 1/2',
      'done property/p 2/2',
      'done property/p 2/2 shrinking 1',
      'ended property/p: 2 of 2 cases and 1 candidate tried while shrinking: broke answer.status',
    ]);
  });
});
