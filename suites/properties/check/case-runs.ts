import { setMaxListeners } from 'node:events';
import { InternalError, messageOf } from '../../../src/errors.js';
import { LoadEnded } from '../../../src/poller/poller.js';
import { neighboursOf, type Beside } from '../batch-load.js';
import type { SubCaseRecord } from '../batch-verdicts.js';
import type { CaseVerdict, PropertySpec } from '../property.js';
import { stopForKitFault, type PropertyRun } from './property-run.js';

/** Runs one case; a case that threw is a fault of the kit, never of the provisioner. */
export async function runGuarded<T>(spec: PropertySpec<T>, value: T, caseSuite: string, signal: AbortSignal): Promise<CaseVerdict> {
  try {
    return await spec.runCase(value, caseSuite, signal);
  } catch (error) {
    throw new InternalError(`${caseSuite}: the kit failed while running a case: ${messageOf(error)}`, { cause: error });
  }
}

/** The suite names of the next batch of `batchSize` cases, by place: each case is judged on its own slice. */
export function nextSuite<T>(run: PropertyRun<T>, batchSize: number): (index: number) => string {
  const batch = ++run.state.batches;
  const { name } = run.spec;
  // A lone case needs no sub-number; sub-cases of a batch get one each.
  return (index) => (batchSize === 1 ? `${name}#${batch}` : `${name}#${batch}.${index + 1}`);
}

/** Runs one sub-case within the property's limit, keeping the longest case's length for shrinking's budget. */
export async function runSubCase<T>(run: PropertyRun<T>, value: T, caseSuite: string, beside?: Beside<T>): Promise<SubCaseRecord<T>> {
  const guarded = runGuarded(run.spec, value, caseSuite, run.limit);
  const began = performance.now();
  run.running.add(guarded);
  try {
    const verdict = await guarded;
    run.state.longestCaseMs = Math.max(run.state.longestCaseMs, performance.now() - began);
    return { value, caseSuite, verdict, beside };
  } finally {
    run.running.delete(guarded);
  }
}

/**
 * Runs a case again (a re-run, a replay) beside as many of its batch's others as were in flight when it was judged,
 * as load started with it and stopped when it ends (batch-load.ts); `runCase` gets the case's own suite name. A
 * property that cannot run a case as load runs it alone.
 */
export async function runBeside<T, R>(run: PropertyRun<T>, beside: Beside<T> | undefined, signal: AbortSignal, runCase: (caseSuite: string) => Promise<R>): Promise<R> {
  const others = beside && run.spec.runAsLoad ? neighboursOf(beside) : [];
  const suiteOf = nextSuite(run, 1 + others.length);
  const done = new AbortController();
  const loadSignal = AbortSignal.any([signal, done.signal]);
  setMaxListeners(0, loadSignal);
  others.forEach((other, i) => startLoad(run, other, suiteOf(i + 1), loadSignal));
  try {
    return await runCase(suiteOf(0));
  } finally {
    done.abort(new LoadEnded());
  }
}

function startLoad<T>(run: PropertyRun<T>, value: T, caseSuite: string, signal: AbortSignal): void {
  const load = Promise.resolve()
    .then(() => run.spec.runAsLoad!(value, caseSuite, signal))
    .catch((error: unknown) => {
      // Load is the kit's own doing: its error stops the property, as a case's does.
      stopForKitFault(run, new InternalError(`${caseSuite}: the kit failed while running a case as load: ${messageOf(error)}`, { cause: error }));
    });
  run.running.add(load);
  void load.finally(() => run.running.delete(load));
}

/** Waits for every case and load still in flight, then throws the kit's error if one came. */
export async function settleRunning<T>(run: PropertyRun<T>): Promise<void> {
  while (run.running.size > 0) await Promise.allSettled([...run.running]);
  if (run.state.kitFault) throw run.state.kitFault;
}
