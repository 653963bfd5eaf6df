import { describe, expect, it } from 'vitest';
import { longestChain, PROPERTY_CATALOG } from '../../src/config/property-catalog.js';
import { PROPERTIES } from '../../suites/properties/index.js';
import { DEFAULT_MAX_CHAIN, MODEL_BASED_RUNS } from '../../suites/properties/model/index.js';

describe('the property catalog the run flags read', () => {
  it('names the property suites in their order, with their default numbers of cases', () => {
    expect(PROPERTY_CATALOG.map(({ name, defaultMaxExamples }) => ({ name, defaultMaxExamples }))).toEqual(
      PROPERTIES.map((suite) => ({ name: suite.name, defaultMaxExamples: suite.defaultMaxExamples })),
    );
  });

  it('counts the operations a model-based case waits for as the model bounds them', () => {
    expect(PROPERTY_CATALOG.find((property) => property.name === MODEL_BASED_RUNS)?.chain).toBe(DEFAULT_MAX_CHAIN);
  });

  it('names the property whose cases wait longest, and counts applied generated change sets when they are', () => {
    const all = PROPERTY_CATALOG.map((property) => property.name);
    expect(longestChain(all, false)).toEqual({ name: MODEL_BASED_RUNS, chain: 2 });
    expect(longestChain(all, true)).toEqual({ name: 'property/generated-plans', chain: 3 });
    expect(longestChain(['property/malformed-json'], true)).toEqual({ name: 'property/malformed-json', chain: 1 });
    expect(longestChain([], false)).toBeUndefined();
  });
});
