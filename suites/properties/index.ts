import type { PropertySuite } from './property.js';
import { generatedPlans } from './generated-plans.js';
import { invalidChangeSet, malformedJson } from './bad-input.js';
import { modelBasedRuns } from './model/index.js';

/** The property suites, in the order they are reported; each runs its cases in batches of sub-cases at the same time. */
export const PROPERTIES: readonly PropertySuite[] = [
  generatedPlans,
  malformedJson,
  invalidChangeSet,
  modelBasedRuns,
];
