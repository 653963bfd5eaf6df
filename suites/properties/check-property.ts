import fc from 'fast-check';
import type { PropertyResult } from '../../src/core/property-result.js';
import { BatchArbitrary, type ShrinkNode } from './batch-arbitrary.js';
import { BatchVerdicts } from './batch-verdicts.js';
import type { PropertyContext, PropertySpec } from './property.js';
import { settleRunning } from './check/case-runs.js';
import { judgeBatch } from './check/judge-batch.js';
import { planProperty, shrinkWidthOf, type PropertyPlan } from './check/property-plan.js';
import { failedResult, passedResult, resultBase } from './check/property-outcome.js';
import { startPropertyRun, type EarlyCandidates, type PropertyRun } from './check/property-run.js';
import { confirmFailure } from './check/reruns.js';
import { RunAhead } from './check/run-ahead.js';
import { RunInOrder } from './check/run-in-order.js';

/**
 * Runs one property against the live provisioner with fast-check. Each fast-check case is a batch of
 * sub-cases run at the same time, so that a property waits a few operation-lengths whatever its number of
 * cases; a failing batch shrinks to the one sub-case that fails, whose verdict is taken from the batch rather
 * than asked of the provisioner again. Generation and shrinking are bounded by the property's time limit, the
 * shrunk counterexample is run again to tell a real failure from a flaky one, and the seed is always recorded
 * so that `--seed S --path P` replays the case.
 *
 * Its phases, each a module of `check/`: the plan (property-plan.ts); fast-check's questions (judge-batch.ts),
 * with shrink candidates run early (run-ahead.ts, run-in-order.ts) within shrinking's window (shrink-window.ts)
 * and a replayed case beside its batch (replay.ts); the re-runs (reruns.ts); the result (property-outcome.ts).
 */
export async function checkProperty<T>(context: PropertyContext, spec: PropertySpec<T>): Promise<PropertyResult> {
  const plan = planProperty(context.settings, spec);
  const { run, early } = startChecking(context, spec, plan);
  const details = await askFastCheck(run, early);
  const base = resultBase(run, details.interrupted);
  const { lastFailure } = run.state;
  // Interrupted before any case ended (a very slow provisioner) is no failure: there is no counterexample.
  if (!details.failed || details.counterexample === null || !lastFailure) return passedResult(run, base);
  const confirmed = await confirmFailure(run, lastFailure, details.counterexamplePath ?? undefined);
  // Load started beside the re-runs ends before the property does.
  await settleRunning(run);
  return failedResult(run, base, confirmed);
}

/** fast-check's run of generated batches and shrinking; it ends once every case and load still in flight has. */
async function askFastCheck<T>(run: PropertyRun<T>, early: EarlyCandidates<T>): Promise<fc.RunDetails<unknown>> {
  const { plan } = run;
  try {
    const details = await fc.check(fc.asyncProperty(run.arbitrary, (batch) => judgeBatch(run, early, batch)), {
      numRuns: plan.numBatches,
      seed: plan.seed,
      path: plan.replayPath,
      endOnFailure: plan.replaying,
      plugins: [fc.interruptAfterTimeLimit(run.settings.timeLimit.ms)],
    });
    run.state.over = true;
    await settleRunning(run);
    return details;
  } finally {
    run.release();
  }
}

/**
 * The run and the way its shrink candidates start early: deep, ahead of fast-check, where candidates follow from
 * the value alone; else each level's candidates in order, as fast-check takes them.
 */
function startChecking<T>(context: PropertyContext, spec: PropertySpec<T>, plan: PropertyPlan): { run: PropertyRun<T>; early: EarlyCandidates<T> } {
  // The arbitrary tells the early runs of each candidate, and they need the run, which holds the arbitrary: they
  // are made once the run is, before fast-check's first question.
  let ahead: RunAhead<T> | undefined;
  let inOrder: RunInOrder<T> | undefined;
  const arbitrary = new BatchArbitrary(spec.slots?.(plan.size) ?? Array.from({ length: plan.size }, () => spec.arbitrary), {
    width: (slot) => shrinkWidthOf(spec, slot, plan.size),
    ...(spec.candidatesFromValue
      ? { opened: (node: ShrinkNode<T>, width: number) => ahead?.opened(node, width) }
      : { start: (batch: readonly T[], width: number) => inOrder?.start(batch, width) }),
  });
  const run = startPropertyRun({ spec, context, plan, arbitrary, verdicts: new BatchVerdicts(arbitrary) });
  if (spec.candidatesFromValue) ahead = new RunAhead(run);
  else inOrder = new RunInOrder(run);
  return { run, early: ahead ?? inOrder! };
}
