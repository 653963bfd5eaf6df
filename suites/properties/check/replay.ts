import type { Beside } from '../batch-load.js';
import type { SubCaseRecord } from '../batch-verdicts.js';
import { runBeside, runSubCase } from './case-runs.js';
import type { PropertyRun } from './property-run.js';

/** Times a counterexample is run again before it is reported; a replay beside its batch gets as many more runs. */
export const RERUNS = 3;

/**
 * Replays the case a path names beside what it was judged beside. When that load is what it needs to fail, one run
 * may miss the moment, as a re-run may: like the failure it replays, it gets up to RERUNS more runs to show it.
 */
export async function replayBeside<T>(run: PropertyRun<T>, value: T, beside: Beside<T>): Promise<SubCaseRecord<T>> {
  const { state, spec } = run;
  for (;;) {
    const record = await runBeside(run, beside, run.limit, (caseSuite) => runSubCase(run, value, caseSuite, beside));
    state.replayRuns++;
    if (record.verdict.broken.length > 0 || !spec.runAsLoad || beside.count === 0 || state.replayRuns > RERUNS || run.limit.aborted || state.over) return record;
    // A run that held is judged, and counted, as any case.
    state.judged++;
    run.context.caseEnded?.({ shrinking: false });
  }
}
