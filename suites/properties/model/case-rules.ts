import { ruleIdsJudgedInCases } from '../../../src/rules/index.js';

/** Rules a model-based case is judged by: the rules that declare model-based cases judge them. */
export const MODEL_CASE_RULES: readonly string[] = ruleIdsJudgedInCases('model-based');
