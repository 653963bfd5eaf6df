// vitest is an optional peer: the entry imports without it, and says what is missing when it is used.
const vitest: typeof import('vitest') | undefined = await import('vitest').catch(() => undefined);
import { runConformance, type Report } from './api/run-conformance.js';
import type { ConformanceOptions } from './api/options.js';
import { RULES } from './rules/index.js';

export interface ConformanceSuiteOptions extends Omit<ConformanceOptions, 'url'> {
  /** The provisioner's URL, or a function that gives it once the suite's own server is up (called in beforeAll). */
  url: string | (() => string | Promise<string>);
  /** Time for the whole run, ms (default 10 minutes): slow provisioners take a few operation-lengths. */
  timeoutMs?: number;
}

type JsonRuleResult = Report['rules'][number];

function failureText(rule: JsonRuleResult): string {
  const evidence = rule.evidence.slice(0, 5).flatMap((item) => [`  • ${item.note}`, ...item.exchanges.slice(0, 1).map((exchange) => `    repeat: ${exchange.curl}`)]);
  return [`${rule.id} (${rule.level}): ${rule.message}`, `  ${rule.sentence}`, ...evidence].join('\n');
}

/**
 * Registers one vitest test per rule of the contract, judged by one run of the kit against the URL the suite
 * gives: `vitest` then shows the contract rule by rule. A rule that fails fails its test; one the run did not
 * exercise, or that was deselected or waived, is skipped (never passed); a warning passes unless `strict`.
 */
export function describeConformance(name: string, options: ConformanceSuiteOptions): void {
  if (!vitest) throw new Error('provisioner-conformance/vitest needs vitest next to it: npm install --save-dev vitest');
  const { beforeAll, describe, it } = vitest;
  describe(name, () => {
    let report: Report | undefined;
    let failure: unknown;
    beforeAll(async () => {
      try {
        // timeoutMs is the suite's own, not the run's: the run refuses an option it does not know.
        const { url: given, timeoutMs: _timeout, ...runOptions } = options;
        const url = typeof given === 'function' ? await given() : given;
        report = await runConformance({ ...runOptions, url });
      } catch (error) {
        failure = error;
      }
    }, options.timeoutMs ?? 600_000);

    for (const rule of RULES) {
      it(rule.id, (context) => {
        if (failure !== undefined) throw failure;
        const result = report?.rules.find((candidate) => candidate.id === rule.id);
        if (!result) throw new Error(`the run reported nothing about ${rule.id}`);
        if (result.status === 'fail' || result.status === 'error') throw new Error(failureText(result));
        if (result.status === 'not-applicable' || result.status === 'not-exercised' || result.status === 'skip' || result.status === 'waived') context.skip(`${result.status}: ${result.message}`);
      });
    }
  });
}
