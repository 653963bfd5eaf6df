import { describe, expect, it, vi } from 'vitest';
import { runProperties, shareOf } from '../../src/runner/properties.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import type { PropertySuite } from '../../suites/properties/property.js';
import type { SuiteContext } from '../../suites/suite.js';
import { context as judgeContext } from '../support/transcript-builder.js';
import { givenTimeLimit } from '../support/time-limit.js';
import { budgetShare } from '../../src/core/time-budget.js';

/** A property that records when it ran, and whether it applies. */
function fakeSuite(name: string, applies: boolean, timeline: string[], limits: Record<string, number> = {}, origins: Record<string, string> = {}): PropertySuite {
  return {
    name,
    defaultMaxExamples: 1,
    applies: () => applies,
    async run(context): Promise<PropertyResult> {
      limits[name] = context.settings.timeLimit.ms;
      origins[name] = context.settings.timeLimit.origin.source;
      timeline.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      timeline.push(`${name} end`);
      return { name, status: 'passed', numRuns: 1, seed: 1, interrupted: false, ruleIds: [], exchanges: [], notes: [], reruns: [], message: '' };
    },
  };
}

describe('running the properties of a run', () => {
  it('runs properties that only plan together, and lets properties that apply take turns', async () => {
    const timeline: string[] = [];
    const suites = [fakeSuite('plan-a', false, timeline), fakeSuite('apply-a', true, timeline), fakeSuite('plan-b', false, timeline), fakeSuite('apply-b', true, timeline)];
    const results = await runProperties({} as SuiteContext, { suites, allowApplyGenerated: false }, givenTimeLimit(1000), judgeContext(), () => undefined);
    expect(results.map((result) => result.name)).toEqual(['plan-a', 'apply-a', 'plan-b', 'apply-b']);
    expect(timeline.indexOf('apply-b start')).toBeGreaterThan(timeline.indexOf('apply-a end'));
    expect(timeline.indexOf('plan-b start')).toBeLessThan(timeline.indexOf('plan-a end'));
    expect(timeline.indexOf('apply-a start')).toBeLessThan(timeline.indexOf('plan-a end'));
  });

  it('starts properties that apply only once the scenarios are done, and the others at once', async () => {
    const timeline: string[] = [];
    let scenariosDone!: () => void;
    const scenarios = new Promise<void>((resolve) => (scenariosDone = resolve));
    const running = runProperties(
      {} as SuiteContext,
      { suites: [fakeSuite('apply-a', true, timeline), fakeSuite('plan-a', false, timeline)], allowApplyGenerated: false },
      givenTimeLimit(1000),
      judgeContext(),
      () => undefined,
      scenarios.then(() => timeline.push('scenarios end')),
    );
    await vi.waitFor(() => expect(timeline).toContain('plan-a end'));
    expect(timeline).toEqual(['plan-a start', 'plan-a end']);
    scenariosDone();
    await running;
    expect(timeline).toEqual(['plan-a start', 'plan-a end', 'scenarios end', 'apply-a start', 'apply-a end']);
  });

  it('starts a property that applies alongside at once, hands it when it may apply, and gives the next turn only after it', async () => {
    const timeline: string[] = [];
    let scenariosDone!: () => void;
    const scenarios = new Promise<void>((resolve) => (scenariosDone = resolve));
    const alongside: PropertySuite = {
      ...fakeSuite('model', true, timeline),
      appliesAlongside: true,
      async run(context): Promise<PropertyResult> {
        timeline.push('model start');
        await context.appliesMayStart;
        timeline.push('model apply');
        return { name: 'model', status: 'passed', numRuns: 1, seed: 1, interrupted: false, ruleIds: [], exchanges: [], notes: [], reruns: [], message: '' };
      },
    };
    const running = runProperties(
      {} as SuiteContext,
      { suites: [alongside, fakeSuite('apply-a', true, timeline)], allowApplyGenerated: false },
      givenTimeLimit(1000),
      judgeContext(),
      () => undefined,
      scenarios.then(() => timeline.push('scenarios end')),
    );
    await vi.waitFor(() => expect(timeline).toContain('model start'));
    expect(timeline).toEqual(['model start']);
    scenariosDone();
    await running;
    expect(timeline).toEqual(['model start', 'scenarios end', 'model apply', 'apply-a start', 'apply-a end']);
  });

  it("shares a time limit the run's budget left among the properties that take turns, and gives each the whole of one that was given", async () => {
    const limits: Record<string, number> = {};
    const origins: Record<string, string> = {};
    const suites = [fakeSuite('apply-a', true, [], limits, origins), fakeSuite('plan-a', false, [], limits, origins), fakeSuite('apply-b', true, [], limits, origins)];
    await runProperties({} as SuiteContext, { suites, allowApplyGenerated: false }, budgetShare(10_000), judgeContext(), () => undefined);
    // The first of two turns gets half; the last gets what is left, its predecessor's unused time included.
    expect(limits['apply-a']).toBeLessThanOrEqual(5_000);
    expect(limits['apply-a']).toBeGreaterThan(4_000);
    expect(limits['apply-b']).toBeGreaterThan(8_000);
    expect(limits['apply-b']).toBeLessThan(10_000);
    expect(limits['plan-a']).toBe(10_000);
    // Each share is still said to be what the run's --time-limit left.
    expect(origins).toEqual({ 'apply-a': 'budget', 'plan-a': 'budget', 'apply-b': 'budget' });

    await runProperties({} as SuiteContext, { suites, allowApplyGenerated: false }, givenTimeLimit(10_000), judgeContext(), () => undefined);
    expect(limits).toEqual({ 'apply-a': 10_000, 'plan-a': 10_000, 'apply-b': 10_000 });
    expect(origins).toEqual({ 'apply-a': 'given', 'plan-a': 'given', 'apply-b': 'given' });
  });

  it('never gives a turn less than a millisecond', () => {
    expect(shareOf(0, 2)).toBe(1);
    expect(shareOf(-50, 1)).toBe(1);
    expect(shareOf(900, 0)).toBe(900);
    expect(shareOf(901, 2)).toBe(450);
  });
});
