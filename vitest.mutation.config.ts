import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Hand-built rule tests first, the recorded transcripts last. Stryker stops at a mutant's first failing
 * test, and vitest's own order runs the slowest file first: the recorded transcripts, a second or more,
 * where a hand-built test kills most mutants in milliseconds.
 */
class HandBuiltFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const slow = (spec: TestSpecification): number => (spec.moduleId.endsWith('recorded-transcripts.test.ts') ? 1 : 0);
    return [...files].sort((a, b) => slow(a) - slow(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

// The tests Stryker runs against each mutant of the judges: the rule tests and the streaming judge's unit
// tests, which are pure (no servers, no clock, no files).
export default defineConfig({
  test: {
    include: ['test/rules/**/*.test.ts', 'test/observe/streaming-judge*.test.ts'],
    testTimeout: 60_000,
    sequence: { sequencer: HandBuiltFirst },
  },
});
