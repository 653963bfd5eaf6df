import { describe, expect, it, vi } from 'vitest';
import { runProperties } from '../../src/runner/properties.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import type { PropertySuite } from '../../suites/properties/property.js';
import type { SuiteContext } from '../../suites/suite.js';
import { context as judgeContext } from '../support/transcript-builder.js';

/** A property that records when it ran, and whether it applies. */
function fakeSuite(name: string, applies: boolean, timeline: string[]): PropertySuite {
  return {
    name,
    defaultMaxExamples: 1,
    applies: () => applies,
    async run(): Promise<PropertyResult> {
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
    const results = await runProperties({} as SuiteContext, { suites, timeLimitMs: 1000, allowApplyGenerated: false }, judgeContext(), () => undefined);
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
      { suites: [fakeSuite('apply-a', true, timeline), fakeSuite('plan-a', false, timeline)], timeLimitMs: 1000, allowApplyGenerated: false },
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
});
