import { plural } from '../core/text.js';
import { isBudgetSpent } from '../core/budget-spent.js';
import { isNothingAnswered } from './first-wave.js';
import type { SuiteProgress } from '../core/suite-progress.js';
import type { PropertySuite } from '../../suites/properties/property.js';
import type { Suite, SuiteContext } from '../../suites/suite.js';

interface CaseCounter {
  caseEnded: (kind?: { shrinking: boolean }) => void;
  done: () => number;
  shrinking: () => number | undefined;
}

/** A counter of one suite's ended cases that tells the progress each time one ends; candidates tried while shrinking count apart. */
function counter(progress: SuiteProgress, name: string, total: number | undefined): CaseCounter {
  let done = 0;
  let shrinking: number | undefined;
  return {
    caseEnded: (kind) => {
      if (kind?.shrinking) shrinking = (shrinking ?? 0) + 1;
      else done++;
      progress.casesDone(name, done, total, shrinking);
    },
    done: () => done,
    shrinking: () => shrinking,
  };
}

/** How a suite ended, in a few words: its cases, and whether the run's budget or the user stopped it. */
export function endSummary(done: number, total: number | undefined, signal: AbortSignal, shrinking?: number): string {
  const generated = total === undefined ? plural(done, 'case') : `${done} of ${plural(total, 'case')}`;
  const cases = shrinking === undefined ? generated : `${generated} and ${plural(shrinking, 'candidate')} tried while shrinking`;
  if (!signal.aborted) return cases;
  return `${cases}; ${isBudgetSpent(signal) ? 'stopped when the time limit was spent' : 'stopped'}`;
}

/** The suite as it was, telling `progress` when it starts, as each case ends, and when it ends. */
export function trackedSuite(suite: Suite, progress: SuiteProgress): Suite {
  return {
    ...suite,
    async run(context: SuiteContext): Promise<void> {
      const total = suite.cases?.(context);
      const cases = counter(progress, suite.name, total);
      progress.suiteStarted(suite.name, total);
      try {
        await suite.run({ ...context, caseEnded: cases.caseEnded });
      } finally {
        // A target that answered nothing gets one short summary, not a line per suite it stopped.
        if (!isNothingAnswered(context.signal)) progress.suiteEnded(suite.name, endSummary(cases.done(), total, context.signal));
      }
    },
  };
}

/** A property as it was, telling `progress` of its cases (`total`: the cases it was asked for) and its end. */
export function trackedProperty(suite: PropertySuite, progress: SuiteProgress, total: number): PropertySuite {
  return {
    ...suite,
    async run(context) {
      const cases = counter(progress, suite.name, total);
      progress.suiteStarted(suite.name, total);
      let message: string | undefined;
      try {
        const result = await suite.run({ ...context, caseEnded: cases.caseEnded });
        message = result.message;
        return result;
      } finally {
        const summary = endSummary(cases.done(), total, context.signal, cases.shrinking());
        progress.suiteEnded(suite.name, message === undefined ? summary : `${summary}: ${message}`);
      }
    },
  };
}
