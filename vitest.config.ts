import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that leave no state behind in the modules they load (timers, spies and servers are restored or
 * closed by the tests themselves): they share a worker's modules instead of loading them again for every
 * file, which on two cores costs more than most of these files' tests take. The reference's tests stay
 * apart: its faults count the ids they issue in module state.
 */
const SHARED_MODULES = [
  'test/rules/**/*.test.ts',
  'test/report/**/*.test.ts',
  'test/transcript/**/*.test.ts',
  'test/shapes/**/*.test.ts',
  'test/core/**/*.test.ts',
  'test/poller/**/*.test.ts',
  'test/config/**/*.test.ts',
  'test/scenarios/**/*.test.ts',
  'test/client/**/*.test.ts',
  'test/docs/**/*.test.ts',
  // All but the test that mocks a rule's module: a module a worker has loaded already cannot be mocked.
  'test/runner/!(judge-error).test.ts',
  'test/api/**/*.test.ts',
  'test/architecture/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/*.test.ts',
];

/**
 * Files that run several whole runs of the kit at once, or whose faults show only when reads race each other
 * within milliseconds: each has the machine to itself, after the others, as every file had when files ran one
 * at a time.
 */
const ALONE = [
  'test/e2e/reference-expectations.test.ts',
  'test/e2e/slow-property-bugs.test.ts',
  'test/properties/model-based-runs.test.ts',
  'test/properties/model-racing-reads.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // As long as a test's: with two files at once, a hook that walks the whole source may wait for a core.
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at once: most end-to-end files wait on the provisioner's work far more than they compute, and
    // vitest would otherwise take one worker on two cores (the number of cores less one).
    maxWorkers: 2,
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: SHARED_MODULES, isolate: false } },
      // Everything else (end-to-end, properties, observe, the reference, the mocked judge) gets a fresh worker per file.
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SHARED_MODULES, ...ALONE] } },
      { extends: true, test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
