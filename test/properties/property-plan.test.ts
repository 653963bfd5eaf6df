import { describe, expect, it } from 'vitest';
import { planProperty, shrinkWidthOf } from '../../suites/properties/check/property-plan.js';
import type { PropertySettings } from '../../suites/properties/property.js';
import { HELD, integerSpec } from './property-run-support.js';
import { givenTimeLimit } from '../support/time-limit.js';

const SETTINGS: PropertySettings = { maxExamples: 25, timeLimit: givenTimeLimit(60_000), allowApplyGenerated: false };
const spec = integerSpec(async () => HELD);

describe('the plan of a property run', () => {
  it('asks for as few batches as hold the cases asked for, at the property’s own size', () => {
    expect(planProperty(SETTINGS, { ...spec, batchSize: 4 }, () => 99)).toEqual({ seed: 99, replaying: false, ownSize: 4, size: 4, numBatches: 7, planned: 25 });
    expect(planProperty(SETTINGS, spec, () => 99)).toMatchObject({ ownSize: 1, size: 1, numBatches: 25 });
  });

  it('grows the batch with the cases asked for up to the property’s limit', () => {
    expect(planProperty({ ...SETTINGS, maxExamples: 50 }, { ...spec, batchSize: 4, batchLimit: 50 })).toMatchObject({ ownSize: 4, size: 50, numBatches: 1, planned: 50 });
  });

  it('keeps the seed given, and draws one when none is', () => {
    expect(planProperty({ ...SETTINGS, seed: 5 }, spec, () => 99).seed).toBe(5);
    expect(planProperty(SETTINGS, spec, () => 99).seed).toBe(99);
  });

  it('replays one batch at the size its path recorded, or the property’s own size for a path without one', () => {
    expect(planProperty({ ...SETTINGS, seed: 5, path: '50/3:1' }, { ...spec, batchSize: 4, batchLimit: 50 })).toEqual({
      seed: 5, replaying: true, replayPath: '3:1', ownSize: 4, size: 50, numBatches: 1, planned: 50,
    });
    expect(planProperty({ ...SETTINGS, seed: 5, path: '3:1' }, { ...spec, batchSize: 4 })).toMatchObject({ replaying: true, replayPath: '3:1', size: 4, planned: 4 });
  });

  it('does not replay a path without a seed', () => {
    expect(planProperty({ ...SETTINGS, path: '3:1' }, spec, () => 99)).toMatchObject({ replaying: false, numBatches: 25 });
    expect(planProperty({ ...SETTINGS, path: '3:1' }, spec, () => 99).replayPath).toBeUndefined();
  });

  it('runs at least one shrink candidate at once, whatever the property says', () => {
    expect(shrinkWidthOf(spec, 0, 4)).toBe(1);
    expect(shrinkWidthOf({ ...spec, shrinkWidth: () => 0 }, 0, 4)).toBe(1);
    expect(shrinkWidthOf({ ...spec, shrinkWidth: (slot, size) => slot + size + 0.5 }, 2, 4)).toBe(6);
  });
});
