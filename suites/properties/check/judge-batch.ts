import { DEADLINE_ONLY_RULE_IDS } from '../../../src/rules/index.js';
import { besideOf } from '../batch-load.js';
import { SKIPPED, type SubCaseRecord } from '../batch-verdicts.js';
import { shrinkWidthOf } from './property-plan.js';
import { runBeside, runSubCase, nextSuite } from './case-runs.js';
import { stopForKitFault, verdictsClosed, type EarlyCandidates, type PropertyRun } from './property-run.js';
import { replayBeside } from './replay.js';
import { heldBy, shrinkOver } from './shrink-window.js';

/**
 * fast-check's question, whether a batch holds: taken from a verdict known already, from a candidate started early,
 * or from running the batch now. A verdict that comes once no verdict may be taken any more counts as holding, so
 * that nothing changes what was reported.
 */
export async function judgeBatch<T>(run: PropertyRun<T>, early: EarlyCandidates<T>, batch: T[]): Promise<boolean> {
  const { state, plan } = run;
  // A replay runs the one case the path names; fast-check would go on to its neighbours if it held.
  if (verdictsClosed(run) || (plan.replaying && state.batches > 0)) return true;
  const known = run.verdicts.known(batch);
  if (known === SKIPPED) return true;
  if (known) return heldBy(run, [known]);
  // Past the shrinking budget a candidate is not run: it counts as holding, so the smallest failure so far stands.
  if (state.lastFailure && shrinkOver(run)) return true;
  // While generating, the last batch runs only the sub-cases left of the number asked for; a shrunk batch runs whole.
  const count = state.lastFailure ? batch.length : Math.min(batch.length, Math.max(1, plan.planned - state.judged));
  const started = early.verdictOf(batch);
  const found = started && (await started.catch(() => undefined));
  // The same case as one judged already: its verdict, taken as a batch's is, counts as no case of its own.
  if (found && !found.ran) return verdictsClosed(run) || heldBy(run, [{ ...found.record, value: batch[0]! }]);
  const pending: Array<Promise<SubCaseRecord<T> | undefined>> = started ? [started.then((taken) => taken?.record)] : runBatch(run, batch, count);
  const settled = await Promise.allSettled(pending);
  // A candidate run ahead that never got its place: the limit struck first, or shrinking's budget ended.
  if (settled.some((s) => s.status === 'fulfilled' && s.value === undefined)) {
    if (!state.shrinkStopped) state.cutShort = true;
    return true;
  }
  const fault = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (fault) {
    stopForKitFault(run, fault.reason);
    return true;
  }
  if (verdictsClosed(run)) return true;
  const records = settled.map((s) => (s as PromiseFulfilledResult<SubCaseRecord<T>>).value);
  countJudged(run, records);
  run.verdicts.remember(batch, [...records, ...batch.slice(count).map((): typeof SKIPPED => SKIPPED)]);
  if (state.lastFailure === undefined) await scenariosHeardOf(run, records);
  return heldBy(run, records);
}

/**
 * Tells the live progress of a generated batch's sub-case as soon as it ends, unless the property is over by then:
 * a batch of thirty cases would otherwise show none done until its last one ended. The verdict is still taken
 * batch by batch.
 */
function tellEnded<T>(run: PropertyRun<T>, record: SubCaseRecord<T>, shrinking: boolean): SubCaseRecord<T> {
  if (run.state.over || run.limit.aborted) return record;
  run.state.toldEnded.add(record);
  run.context.caseEnded?.({ shrinking });
  return record;
}

/** Counts the sub-cases judged, and tells the live progress of each not told yet: a batch asked for once a failure was seen is a shrink candidate. */
function countJudged<T>(run: PropertyRun<T>, records: ReadonlyArray<SubCaseRecord<T>>): void {
  const shrinking = run.state.lastFailure !== undefined;
  for (const record of records) {
    if (shrinking) run.state.shrinkJudged++;
    else run.state.judged++;
    if (!run.state.toldEnded.has(record)) run.context.caseEnded?.({ shrinking });
  }
}

/**
 * A generated batch runs whole, each sub-case beside the others. A one-item batch runs beside what its verdict is
 * taken beside: a shrink candidate not run early, nothing; one named by a replay's path, what it was judged beside.
 */
function runBatch<T>(run: PropertyRun<T>, batch: readonly T[], count: number): Array<Promise<SubCaseRecord<T>>> {
  const { arbitrary, plan } = run;
  if (batch.length === 1) {
    const origin = arbitrary.originOf(batch);
    const root = arbitrary.rootOf(batch);
    const beside = origin ? besideOf(origin, true, 0) : root && besideOf(root, false, plan.replaying ? shrinkWidthOf(run.spec, root.index, plan.size) : 1);
    if (plan.replaying && beside) return [replayBeside(run, batch[0]!, beside)];
    return [runBeside(run, beside, run.limit, (caseSuite) => runSubCase(run, batch[0]!, caseSuite, beside))];
  }
  const suiteOf = nextSuite(run, count);
  const shrinking = run.state.lastFailure !== undefined;
  return batch.slice(0, count).map((value, i) => runSubCase(run, value, suiteOf(i), besideOf({ batch, index: i }, true, 0)).then((record) => tellEnded(run, record, shrinking)));
}

/**
 * A first failure that broke only rules the deadline shows waits, while the scenarios still run, to hear whether
 * they showed it too: shrinking it would cost a whole deadline per candidate, and a chance failure would shrink to noise.
 */
async function scenariosHeardOf<T>(run: PropertyRun<T>, records: ReadonlyArray<SubCaseRecord<T>>): Promise<void> {
  const { settings } = run;
  const failing = records.find((record) => record.verdict.broken.length > 0);
  if (!failing || settings.deadlineRulesKnown === undefined || settings.deadlineRulesFailed?.() !== undefined) return;
  if (failing.verdict.broken.every((id) => DEADLINE_ONLY_RULE_IDS.has(id))) await settings.deadlineRulesKnown.catch(() => undefined);
}
