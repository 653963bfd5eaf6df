// @ts-check
// Mutation testing of the judges (the rules and the observer's streaming judge): `npm run mutation` (not part of `npm test`).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'src/rules/**/*.ts',
    'src/transcript/views.ts',
    'src/transcript/situations.ts',
    // The observer's streaming judge and the helpers that decide what it judges, and with what.
    'src/observe/streaming-judge.ts',
    'src/observe/rule-tally.ts',
    'src/observe/change-set-repeats.ts',
    'src/observe/retried-sends.ts',
    'src/observe/unattached-reads.ts',
    'src/observe/seen-change-set.ts',
    'src/observe/classify.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  // `npm run mutation` passes --incremental: a rerun tests only mutants whose code or covering tests
  // changed. The file stays out of git (reports/ is ignored): it holds the whole source of every mutated
  // and test file, changes on every run, and would conflict between branches; a fresh clone makes one
  // full run, then reruns are fast.
  incrementalFile: 'reports/stryker-incremental.json',
  ignorePatterns: ['dist', 'reports'],
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { logTests: false },
  thresholds: { high: 97, low: 95, break: 95 },
};

export default config;
