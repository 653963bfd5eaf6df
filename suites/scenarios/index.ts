import type { Suite } from '../suite.js';
import { planAndApply } from './plan-and-apply.js';
import { unknownOperations } from './unknown-operations.js';
import { malformedIds } from './malformed-ids.js';

/** The scenario suites, run together in one run. */
export const SCENARIOS: readonly Suite[] = [planAndApply, unknownOperations, malformedIds];
