/**
 * The property suites as the run's flags describe them: name and default number of cases. The suites
 * themselves load fast-check, so `run --help` and a run without properties read this list instead
 * (a test holds it equal to the suites').
 */
export const PROPERTY_CATALOG: ReadonlyArray<{ name: string; defaultMaxExamples: number }> = [
  { name: 'property/generated-plans', defaultMaxExamples: 20 },
  { name: 'property/malformed-json', defaultMaxExamples: 40 },
  { name: 'property/invalid-change-set', defaultMaxExamples: 40 },
  { name: 'property/model-based-runs', defaultMaxExamples: 30 },
];
