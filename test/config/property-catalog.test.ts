import { describe, expect, it } from 'vitest';
import { PROPERTY_CATALOG } from '../../src/config/property-catalog.js';
import { PROPERTIES } from '../../suites/properties/index.js';

describe('the property catalog the run flags read', () => {
  it('names the property suites in their order, with their default numbers of cases', () => {
    expect(PROPERTY_CATALOG).toEqual(PROPERTIES.map((suite) => ({ name: suite.name, defaultMaxExamples: suite.defaultMaxExamples })));
  });
});
