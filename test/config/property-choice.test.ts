import { describe, expect, it } from 'vitest';
import { propertyConfig } from '../../src/config/run-config.js';

describe('--property', () => {
  it('takes a property by its full name or by the name after "property/"', () => {
    const full = propertyConfig({ properties: true, property: 'property/model-based-runs' }, undefined);
    const bare = propertyConfig({ properties: true, property: 'model-based-runs' }, undefined);
    expect(full.names).toEqual(['property/model-based-runs']);
    expect(bare.names).toEqual(['property/model-based-runs']);
  });

  it('is a usage error naming the flag and the known names for a property that does not exist', () => {
    expect(() => propertyConfig({ properties: true, property: 'model' }, undefined)).toThrow(/^--property: unknown property "model" \(known: property\/generated-plans, /);
  });
});
