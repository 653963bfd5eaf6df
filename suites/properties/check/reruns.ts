import type { PropertyResult } from '../../../src/core/property-result.js';
import type { SubCaseRecord } from '../batch-verdicts.js';
import { pathWithBatch } from '../batch-size.js';
import { runBeside, runGuarded } from './case-runs.js';
import type { PropertyRun } from './property-run.js';
import { RERUNS } from './replay.js';

/** The failure reported after its re-runs: the case, what they showed, and the replay path that finds it. */
export interface ConfirmedFailure<T> {
  failure: SubCaseRecord<T>;
  reruns: PropertyResult['reruns'];
  path: string | undefined;
  /** The smaller case shrinking found showed nothing again, and the case its batch found did: that one is reported. */
  fellBack: boolean;
}

/**
 * Runs the counterexample fast-check reported (at `fcPath`) again, up to RERUNS times, to tell a real failure from
 * a flaky one. A smaller case shrinking found under the load of the moment may fail only now and then, and no
 * re-run shows it again. The case its batch found, run again beside that batch, may: it is then the counterexample,
 * not minimal, and its replay line (the batch's run and the case's place) shows what its re-runs did.
 */
export async function confirmFailure<T>(run: PropertyRun<T>, counterexample: SubCaseRecord<T>, fcPath: string | undefined): Promise<ConfirmedFailure<T>> {
  const { plan, spec } = run;
  const path = fcPath === undefined ? undefined : pathWithBatch(fcPath, plan.size, plan.ownSize);
  const reruns = await rerunsOf(run, counterexample);
  const batchFailure = run.state.firstFailure;
  const mayFallBack = !plan.replaying && spec.runAsLoad !== undefined && fcPath !== undefined;
  if (mayFallBack && batchFailure?.beside && batchFailure !== counterexample && reruns.length > 0 && !reruns.some((r) => r.reproduced)) {
    const again = await rerunsOf(run, batchFailure);
    if (again.some((r) => r.reproduced)) {
      return { failure: batchFailure, reruns: again, fellBack: true, path: pathWithBatch(`${fcPath.split(':')[0]}:${batchFailure.beside.origin.index}`, plan.size, plan.ownSize) };
    }
  }
  return { failure: counterexample, reruns, path, fellBack: false };
}

/** Re-runs a case until one run shows a rule it broke again, as it was judged: beside its batch's others when its verdict came from the batch, else alone. */
export async function rerunsOf<T>(run: PropertyRun<T>, record: SubCaseRecord<T>): Promise<PropertyResult['reruns']> {
  const { signal } = run.context;
  const runs: PropertyResult['reruns'] = [];
  // A failure not worth shrinking is not worth re-running either: each run would wait out the deadline.
  for (let i = 0; i < RERUNS && !signal.aborted && run.state.notWorthShrinking === undefined; i++) {
    const verdict = await runBeside(run, record.beside, signal, (caseSuite) => runGuarded(run.spec, record.value, caseSuite, signal));
    const reproduced = verdict.broken.some((id) => record.verdict.broken.includes(id));
    runs.push({ reproduced, exchanges: verdict.exchanges, notes: verdict.notes });
    if (reproduced) break;
  }
  return runs;
}
