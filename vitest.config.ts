import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Unit tests that start no process and leave no global state behind (timers and spies are restored by the
 * tests themselves): they share a worker's modules instead of loading them again for every file, which on
 * two cores costs more than most of these files' tests take.
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
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: SHARED_MODULES, isolate: false } },
      // Everything else, the end-to-end tests, servers and child processes included, gets a fresh worker per file.
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SHARED_MODULES] } },
    ],
  },
});
