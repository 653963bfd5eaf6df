import type { PropertyResult } from '../../../src/core/property-result.js';
import { isoOfMs, propertyTimeLimitInWords, type PropertyTimeLimit } from '../../../src/core/property-time-limit.js';
import type { PropertyRun } from './property-run.js';
import { RERUNS } from './replay.js';
import type { ConfirmedFailure } from './reruns.js';
import { shrinkBudgetInWords, shrinkBudgetOf } from './shrink-window.js';

/** What every result of the property says, passed or not. */
export type ResultBase = Pick<PropertyResult, 'name' | 'numRuns' | 'shrinkRuns' | 'casesAsked' | 'seed' | 'interrupted'> & { timeLimit: PropertyTimeLimit };

/** The counts, the seed and the time limit of the run, `interrupted` when fast-check or our own clock cut it. */
export function resultBase<T>(run: PropertyRun<T>, interrupted: boolean): ResultBase {
  const { state, plan } = run;
  return {
    name: run.spec.name,
    numRuns: state.judged + state.shrinkJudged,
    shrinkRuns: state.shrinkJudged,
    casesAsked: plan.planned,
    seed: plan.seed,
    interrupted: interrupted || state.cutShort,
    timeLimit: timeLimitOf(run),
  };
}

/** A property with no counterexample: it held over the cases judged, or got none before its time limit. */
export function passedResult<T>(run: PropertyRun<T>, base: ResultBase): PropertyResult {
  const timeLimit = propertyTimeLimitInWords(base.timeLimit);
  return { ...base, status: 'passed', ruleIds: [], exchanges: [], notes: [], reruns: [], message: passedMessage(run.state.judged, run.plan.planned, base.interrupted, timeLimit) };
}

/** A counterexample after its re-runs: failed when one showed it again, flaky when none did; with the line that replays it. */
export function failedResult<T>(run: PropertyRun<T>, base: ResultBase, confirmed: ConfirmedFailure<T>): PropertyResult {
  const { failure, reruns, path } = confirmed;
  const flaky = reruns.length > 0 && !reruns.some((r) => r.reproduced);
  const replay = `--property ${run.spec.name} --seed ${run.plan.seed}${path === undefined ? '' : ` --path ${path}`}`;
  const broken = failure.verdict.broken.join(', ');
  const notMinimal = notMinimalWords(run, confirmed.fellBack);
  const { replayRuns } = run.state;
  return {
    ...base,
    status: flaky ? 'flaky' : 'failed',
    path,
    ruleIds: failure.verdict.broken,
    counterexample: run.spec.describe(failure.value),
    exchanges: failure.verdict.exchanges,
    notes: failure.verdict.notes,
    reruns,
    message: flaky
      ? `broke ${broken} once, but none of ${reruns.length} re-runs did${notMinimal}; replay with ${replay}`
      : `broke ${broken}${notMinimal}${replayRuns > 1 ? ` (on run ${replayRuns} of the replayed case beside its batch)` : ''}; replay with ${replay}`,
  };
}

/** Why the counterexample is not a minimal one, when it is not; empty when it is. */
function notMinimalWords<T>(run: PropertyRun<T>, fellBack: boolean): string {
  const { notWorthShrinking, shrinkStopped, shrinkJudged } = run.state;
  if (notWorthShrinking) {
    return `; not minimal: not shrunk, nor run again: the run's scenarios already broke ${notWorthShrinking.join(', ')}, and each candidate would wait out the whole deadline to show it again`;
  }
  if (fellBack) {
    return `; not minimal: the smaller cases shrinking found failed once and none of ${RERUNS} re-runs showed them again, so this is the case its batch found, shown again beside that batch`;
  }
  if (shrinkStopped) return `; not minimal: shrinking stopped after ${shrinkJudged} ${shrinkJudged === 1 ? 'candidate' : 'candidates'} (its budget: ${shrinkBudgetInWords(shrinkBudgetOf(run))})`;
  return '';
}

/** The time limit as the result records it, in the words of its length in milliseconds. */
function timeLimitOf<T>(run: PropertyRun<T>): PropertyTimeLimit {
  const { ms, origin } = run.settings.timeLimit;
  return { text: isoOfMs(ms), ms, origin };
}

/** `timeLimit` in words, with where it came from: a property it stopped says which limit to raise. */
function passedMessage(cases: number, asked: number, interrupted: boolean, timeLimit: string): string {
  if (cases === 0) return `got no case: stopped before its first case ended by its time limit ${timeLimit}`;
  const counted = cases < asked ? `${cases} of ${asked} cases` : `${cases} cases`;
  if (!interrupted) return `held over ${counted}`;
  return `held over ${counted} before its time limit ${timeLimit} stopped it`;
}
