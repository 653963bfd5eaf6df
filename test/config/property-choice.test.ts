import { describe, expect, it } from 'vitest';
import { resolvePropertyOptions } from '../../src/config/property-options.js';
import { PROPERTIES } from '../../suites/properties/index.js';

const FLAGS = { properties: true, allowApplyGenerated: false };

describe('--property', () => {
  it('takes a property by its full name or by the name after "property/"', () => {
    const full = resolvePropertyOptions({ ...FLAGS, property: 'property/model-based-runs' }, PROPERTIES);
    const bare = resolvePropertyOptions({ ...FLAGS, property: 'model-based-runs' }, PROPERTIES);
    expect(full.suites.map((suite) => suite.name)).toEqual(['property/model-based-runs']);
    expect(bare.suites.map((suite) => suite.name)).toEqual(['property/model-based-runs']);
  });

  it('is a usage error naming the flag and the known names for a property that does not exist', () => {
    expect(() => resolvePropertyOptions({ ...FLAGS, property: 'model' }, PROPERTIES)).toThrow(/^--property: unknown property "model" \(known: property\/generated-plans, /);
  });
});
