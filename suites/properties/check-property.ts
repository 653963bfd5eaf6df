import { setMaxListeners } from 'node:events';
import fc from 'fast-check';
import type { PropertyResult } from '../../src/core/property-result.js';
import { isoOfMs, propertyTimeLimitInWords, type PropertyTimeLimit } from '../../src/core/property-time-limit.js';
import { InternalError, messageOf } from '../../src/errors.js';
import { DEADLINE_ONLY_RULE_IDS } from '../../src/rules/index.js';
import { LoadEnded } from '../../src/poller/poller.js';
import { BatchArbitrary, type ShrinkNode } from './batch-arbitrary.js';
import { besideOf, neighboursOf, type Beside } from './batch-load.js';
import { BatchVerdicts, SKIPPED, type SubCaseRecord } from './batch-verdicts.js';
import type { CaseVerdict, PropertyContext, PropertySpec } from './property.js';
import { FailRates, nextToRun, type AheadState } from './shrink-ahead.js';
import { DEFAULT_SHRINK_BUDGET, shrinkBudgetMs, shrinkWidthFor } from './shrink-budget.js';
import { batchSizeFor, pathWithBatch, splitBatchPath } from './batch-size.js';

/** Times the shrunk counterexample is run again before it is reported. */
const RERUNS = 3;

/**
 * Runs one property against the live provisioner with fast-check. Each fast-check case is a batch of
 * sub-cases run at the same time, so that a property waits a few operation-lengths whatever its number of
 * cases; a failing batch shrinks to the one sub-case that fails, whose verdict is taken from the batch rather
 * than asked of the provisioner again. Generation and shrinking are bounded by the property's time limit, the
 * shrunk counterexample is run again to tell a real failure from a flaky one, and the seed is always recorded
 * so that `--seed S --path P` replays the case.
 */
export async function checkProperty<T>(context: PropertyContext, spec: PropertySpec<T>): Promise<PropertyResult> {
  const { settings } = context;
  const seed = settings.seed ?? freshSeed();
  const replaying = settings.seed !== undefined && settings.path !== undefined;
  const own = Math.max(1, Math.floor(spec.batchSize ?? 1));
  // A replay takes the batch size its path recorded; a path without one was run at the property's own size.
  const replayPath = settings.path === undefined ? undefined : splitBatchPath(settings.path);
  const size = replaying ? (replayPath?.size ?? own) : batchSizeFor(own, settings.maxExamples, spec.batchLimit);
  const widthOf = (slot: number): number => Math.max(1, Math.floor(spec.shrinkWidth?.(slot, size) ?? 1));
  const arbitrary = new BatchArbitrary(spec.slots?.(size) ?? Array.from({ length: size }, () => spec.arbitrary), {
    width: widthOf,
    // Deep only where candidates follow from the value alone; else each level's candidates in order, as taken.
    ...(spec.candidatesFromValue ? { opened: (node: ShrinkNode<T>, width: number) => openedAhead(node, width) } : { start: (batch: readonly T[], width: number) => startInOrder(batch, width) }),
  });
  const verdicts = new BatchVerdicts(arbitrary);
  // --max-examples counts sub-cases: as few batches as hold them, the last one running only those left.
  const numBatches = replaying ? 1 : Math.ceil(settings.maxExamples / size);
  const planned = replaying ? size : settings.maxExamples;
  // Cases still running when the time limit strikes are stopped too: fast-check stops waiting for them, we stop them.
  // A timer of our own, not AbortSignal.timeout: a timeout signal held only through AbortSignal.any may be
  // collected before it fires, and the case in flight would then never hear of the limit.
  const clock = new AbortController();
  const timer = setTimeout(() => clock.abort(new Error('the property time limit is over')), settings.timeLimitMs);
  const limit = AbortSignal.any([context.signal, clock.signal]);
  // Every case of a batch waits on it at once (50 in certify): past Node's 10 listeners it would warn on stderr.
  setMaxListeners(0, limit);
  const running = new Set<Promise<unknown>>();
  let batches = 0;
  // Sub-cases whose verdicts the property took: generated ones, and candidates tried while shrinking. The live
  // progress, the log line and the result all count these, and nothing else: a case the limit cut off, or a
  // candidate run ahead whose verdict fast-check never asked for, is judged by no one.
  let judged = 0;
  let shrinkJudged = 0;
  let over = false;
  // fast-check reports the last failing case it saw as the counterexample: keep its verdict.
  let lastFailure: SubCaseRecord<T> | undefined;
  let firstFailure: SubCaseRecord<T> | undefined;
  let kitFault: Error | undefined;
  // Our own clock may strike just before fast-check's: cases skipped for it make the property interrupted too.
  let cutShort = false;
  // The cost model of shrinking: the longest case judged, and when shrinking must stop (set by the first failure).
  const startedAt = performance.now();
  let longestCaseMs = 0;
  let shrinkEndsAt = Number.POSITIVE_INFINITY;
  // Shrinking ended by its budget: the counterexample is the smallest failing case found by then, not a minimal one.
  let shrinkStopped = false;
  // A failure that broke only rules the scenarios already showed broken by outlasting the deadline: every candidate
  // and re-run would wait out the deadline to show it again, so it is reported as found. The rules it broke, when so.
  let notWorthShrinking: readonly string[] | undefined;
  const shrinkOver = (): boolean => {
    if (performance.now() < shrinkEndsAt) return false;
    shrinkStopped = true;
    return true;
  };

  const nextSuite = (batchSize: number): ((index: number) => string) => {
    const batch = ++batches;
    // A lone case needs no sub-number; sub-cases of a batch get one each, so each is judged on its own slice.
    return (index) => (batchSize === 1 ? `${spec.name}#${batch}` : `${spec.name}#${batch}.${index + 1}`);
  };
  const runSubCase = async (value: T, caseSuite: string, beside?: Beside<T>): Promise<SubCaseRecord<T>> => {
    const run = runGuarded(spec, value, caseSuite, limit);
    const began = performance.now();
    running.add(run);
    try {
      const verdict = await run;
      longestCaseMs = Math.max(longestCaseMs, performance.now() - began);
      return { value, caseSuite, verdict, beside };
    } finally {
      running.delete(run);
    }
  };
  // A case run again (a re-run, a replay) runs beside as many of its batch's others as were in flight when it was
  // judged, as load started with it and stopped when it ends (batch-load.ts); `run` gets the case's own suite name.
  // A property that cannot run a case as load runs it alone.
  const runBeside = async <R>(beside: Beside<T> | undefined, signal: AbortSignal, run: (caseSuite: string) => Promise<R>): Promise<R> => {
    const others = beside && spec.runAsLoad ? neighboursOf(beside) : [];
    const suiteOf = nextSuite(1 + others.length);
    const done = new AbortController();
    const loadSignal = AbortSignal.any([signal, done.signal]);
    setMaxListeners(0, loadSignal);
    others.forEach((other, i) => startLoad(other, suiteOf(i + 1), loadSignal));
    try {
      return await run(suiteOf(0));
    } finally {
      done.abort(new LoadEnded());
    }
  };
  const startLoad = (value: T, caseSuite: string, signal: AbortSignal): void => {
    const load = Promise.resolve()
      .then(() => spec.runAsLoad!(value, caseSuite, signal))
      .catch((error: unknown) => {
        // Load is the kit's own doing: its error stops the property, as a case's does.
        kitFault ??= new InternalError(`${caseSuite}: the kit failed while running a case as load: ${messageOf(error)}`, { cause: error });
        over = true;
      });
    running.add(load);
    void load.finally(() => running.delete(load));
  };

  // Shrink candidates run ahead of fast-check's questions, so that shrinking against slow work takes rounds of
  // several candidates, and several levels, rather than one operation length per candidate (shrink-ahead.ts). Never
  // while replaying: fast-check walks the path through streams without asking for verdicts. Candidates fast-check
  // left behind still run to their end and hold their places, so that no more than `width` ever run at once. A
  // candidate still waiting for its place when the property ends never runs: its record is undefined.
  // Keyed by the case a node sends when the property says which cases are the same: shrinking meets the same
  // candidate again and again (the same items dropped at every level), and one run gives its verdict to all.
  const aheadRuns = new Map<unknown, { node: ShrinkNode<T>; run: Promise<SubCaseRecord<T>> }>();
  const aheadStates = new Map<unknown, AheadState>();
  const keys = new WeakMap<ShrinkNode<T>, unknown>();
  const keyOf = (node: ShrinkNode<T>): unknown => {
    if (!spec.caseKey) return node;
    if (!keys.has(node)) keys.set(node, spec.caseKey(node.batch[0]!));
    return keys.get(node);
  };
  let shrinkRoot: ShrinkNode<T> | undefined;
  let aheadWidth = 1;
  let aheadRunning = 0;
  const failRates = new FailRates();
  let placeFreed: Array<() => void> = [];
  const aheadStopped = (): boolean => over || limit.aborted || replaying || shrinkOver();
  const startAhead = (node: ShrinkNode<T>): void => {
    const root = arbitrary.rootOf(node.batch);
    const key = keyOf(node);
    // Chosen twice in one round as two candidates that send the same: one run serves both.
    if (aheadRuns.has(key)) return;
    aheadStates.set(key, 'running');
    aheadRunning++;
    const run = runSubCase(node.batch[0]!, nextSuite(1)(0), root && besideOf(root, false, aheadWidth))
      .then((record) => {
        const failed = record.verdict.broken.length > 0;
        aheadStates.set(key, failed ? 'failed' : 'held');
        failRates.record(node.index, node.parentIndex, failed);
        return record;
      })
      .finally(() => {
        aheadRunning--;
        fillSoon();
        const waiting = placeFreed;
        placeFreed = [];
        waiting.forEach((freed) => freed());
      });
    // A kit error stops the property whether or not fast-check ever asks for this verdict.
    run.catch((error: unknown) => {
      kitFault ??= error as Error;
      over = true;
    });
    aheadRuns.set(key, { node, run });
  };
  // Fills the free places with the candidates likeliest to be asked for; the next one fast-check asks for comes first.
  const fillAhead = (): void => {
    if (shrinkRoot === undefined || aheadStopped() || aheadRunning >= aheadWidth) return;
    const failRate = (index: number, parentIndex: number): number => failRates.at(index, parentIndex);
    const next = nextToRun(shrinkRoot, aheadWidth - aheadRunning, (node) => aheadStates.get(keyOf(node)), { failRate, deep: spec.candidatesFromValue === true });
    next.forEach(startAhead);
  };
  // Verdicts of a round end close together: choose once those ending at the same moment are all known.
  let fillPending = false;
  const fillSoon = (): void => {
    if (fillPending) return;
    fillPending = true;
    setImmediate(() => {
      fillPending = false;
      fillAhead();
    });
  };
  const openedAhead = (node: ShrinkNode<T>, width: number): void => {
    if (replaying) return;
    shrinkRoot = node;
    aheadWidth = shrinkWidthFor(width, spec.slowShrinkWidth, longestCaseMs);
    fillAhead();
  };
  // The record of a candidate fast-check asks for, run ahead or started now as soon as it has a place; `ran` says
  // whether it ran for this candidate, rather than for the same case met earlier.
  const aheadRecord = async (node: ShrinkNode<T>): Promise<{ record: SubCaseRecord<T>; ran: boolean } | undefined> => {
    for (;;) {
      const entry = aheadRuns.get(keyOf(node));
      if (entry) return { record: await entry.run, ran: entry.node === node };
      if (aheadStopped()) return undefined;
      fillAhead();
      if (aheadRuns.has(keyOf(node))) continue;
      if (aheadRunning < aheadWidth) startAhead(node);
      else await new Promise<void>((freed) => placeFreed.push(freed));
    }
  };
  // Where candidates follow from what ran (fast-check's commands), they run ahead only on the level fast-check is
  // at, in its order, as its stream gives them. Candidates of a level fast-check left behind still run for a while;
  // the next level's wait for their places, so that no more than `width` ever run at once.
  const inOrder = new WeakMap<readonly T[], Promise<SubCaseRecord<T> | undefined>>();
  let inOrderRunning = 0;
  const inOrderFreed: Array<() => void> = [];
  const runInOrder = async (value: T, width: number, beside: Beside<T> | undefined): Promise<SubCaseRecord<T> | undefined> => {
    while (inOrderRunning >= width) await new Promise<void>((freed) => inOrderFreed.push(freed));
    if (over || limit.aborted || shrinkOver()) {
      inOrderFreed.shift()?.();
      return undefined;
    }
    inOrderRunning++;
    try {
      return await runSubCase(value, nextSuite(1)(0), beside);
    } finally {
      inOrderRunning--;
      inOrderFreed.shift()?.();
    }
  };
  const startInOrder = (batch: readonly T[], width: number): void => {
    if (over || limit.aborted || shrinkOver() || replaying || inOrder.has(batch) || verdicts.known(batch)) return;
    const root = arbitrary.rootOf(batch);
    const run = runInOrder(batch[0]!, width, root && besideOf(root, false, width));
    // A kit error stops the property whether or not fast-check ever asks for this verdict.
    run.catch((error: unknown) => {
      kitFault ??= error as Error;
      over = true;
    });
    inOrder.set(batch, run);
  };
  const predicate = async (batch: T[]): Promise<boolean> => {
    // A replay runs the one case the path names; fast-check would go on to its neighbours if it held.
    if (limit.aborted) cutShort = true;
    if (over || limit.aborted || (replaying && batches > 0)) return true;
    const known = verdicts.known(batch);
    if (known === SKIPPED) return true;
    if (known) return heldBy([known]);
    // Past the shrinking budget a candidate is not run: it counts as holding, so the smallest failure so far stands.
    if (lastFailure && shrinkOver()) return true;
    // While generating, the last batch runs only the sub-cases left of the number asked for; a shrunk batch runs whole.
    const count = lastFailure ? batch.length : Math.min(batch.length, Math.max(1, planned - judged));
    const node = shrinkRoot && lastFailure ? arbitrary.nodeOf(batch) : undefined;
    const ahead = node && (await aheadRecord(node).then((found) => ({ found }), (error: unknown) => ({ error })));
    if (ahead && 'found' in ahead && ahead.found && !ahead.found.ran) {
      // The same case as one judged already: its verdict, taken as a batch's is, counts as no case of its own.
      if (limit.aborted) cutShort = true;
      if (over || limit.aborted) return true;
      return heldBy([{ ...ahead.found.record, value: batch[0]! }]);
    }
    const early = inOrder.get(batch);
    const pending: Array<Promise<SubCaseRecord<T> | undefined>> = ahead
      ? ['found' in ahead ? Promise.resolve(ahead.found?.record) : Promise.reject(ahead.error)]
      : early
        ? [early]
        : runBatch(batch, count);
    const settled = await Promise.allSettled(pending);
    // A candidate run ahead that never got its place: the limit struck first, or shrinking's budget ended.
    if (settled.some((s) => s.status === 'fulfilled' && s.value === undefined)) {
      if (!shrinkStopped) cutShort = true;
      return true;
    }
    const fault = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (fault) {
      // Shrinking a bug of the kit would blame the provisioner: keep the error and stop the property instead.
      kitFault ??= fault.reason as Error;
      over = true;
      return true;
    }
    // A verdict that comes after fast-check stopped waiting must not change what was reported.
    if (limit.aborted) cutShort = true;
    if (over || limit.aborted) return true;
    const records = settled.map((s) => (s as PromiseFulfilledResult<SubCaseRecord<T>>).value);
    // A batch asked for once a failure was seen is a shrink candidate.
    const shrinking = lastFailure !== undefined;
    for (const record of records) {
      if (shrinking) shrinkJudged++;
      else judged++;
      if (!toldEnded.has(record)) context.caseEnded?.({ shrinking });
    }
    verdicts.remember(batch, [...records, ...batch.slice(count).map((): typeof SKIPPED => SKIPPED)]);
    if (lastFailure === undefined) await scenariosHeardOf(records);
    return heldBy(records);
  };
  // A first failure that broke only rules the deadline shows waits, while the scenarios still run, to hear whether
  // they showed it too: shrinking it would cost a whole deadline per candidate, and a chance failure would shrink to noise.
  const scenariosHeardOf = async (records: ReadonlyArray<SubCaseRecord<T>>): Promise<void> => {
    const failing = records.find((record) => record.verdict.broken.length > 0);
    if (!failing || settings.deadlineRulesKnown === undefined || settings.deadlineRulesFailed?.() !== undefined) return;
    if (failing.verdict.broken.every((id) => DEADLINE_ONLY_RULE_IDS.has(id))) await settings.deadlineRulesKnown.catch(() => undefined);
  };
  // A generated batch runs whole, each sub-case beside the others. A one-item batch runs beside what its verdict is
  // taken beside: a shrink candidate not run ahead, nothing; one named by a replay's path, what it was judged beside.
  const runBatch = (batch: readonly T[], count: number): Array<Promise<SubCaseRecord<T>>> => {
    if (batch.length === 1) {
      const origin = arbitrary.originOf(batch);
      const root = arbitrary.rootOf(batch);
      const beside = origin ? besideOf(origin, true, 0) : root && besideOf(root, false, replaying ? widthOf(root.index) : 1);
      if (replaying && beside) return [replayBeside(batch[0]!, beside)];
      return [runBeside(beside, limit, (caseSuite) => runSubCase(batch[0]!, caseSuite, beside))];
    }
    const suiteOf = nextSuite(count);
    const shrinking = lastFailure !== undefined;
    return batch.slice(0, count).map((value, i) => runSubCase(value, suiteOf(i), besideOf({ batch, index: i }, true, 0)).then((record) => tellEnded(record, shrinking)));
  };
  // Each sub-case of a batch tells the progress as it ends, not once the whole batch has: a batch of thirty
  // cases would otherwise show none done until its last one ended. The verdict is still taken batch by batch.
  const toldEnded = new WeakSet<SubCaseRecord<T>>();
  const tellEnded = (record: SubCaseRecord<T>, shrinking: boolean): SubCaseRecord<T> => {
    if (over || limit.aborted) return record;
    toldEnded.add(record);
    context.caseEnded?.({ shrinking });
    return record;
  };
  // A replayed case runs beside what it was judged beside. When that load is what it needs to fail, one run may
  // miss the moment, as a re-run may: like the failure it replays, it gets up to RERUNS more runs to show it.
  let replayRuns = 0;
  const replayBeside = async (value: T, beside: Beside<T>): Promise<SubCaseRecord<T>> => {
    for (;;) {
      const record = await runBeside(beside, limit, (caseSuite) => runSubCase(value, caseSuite, beside));
      replayRuns++;
      if (record.verdict.broken.length > 0 || !spec.runAsLoad || beside.count === 0 || replayRuns > RERUNS || limit.aborted || over) return record;
      // A run that held is judged, and counted, as any case.
      judged++;
      context.caseEnded?.({ shrinking: false });
    }
  };
  // The verdict of a batch is the union of its sub-cases': it holds when every sub-case held.
  const heldBy = (records: ReadonlyArray<SubCaseRecord<T>>): boolean => {
    const failing = records.find((record) => record.verdict.broken.length > 0);
    if (failing) {
      // The first failure starts shrinking's clock: a few of the longest case's lengths, never past the time limit.
      if (lastFailure === undefined) {
        const remainingMs = settings.timeLimitMs - (performance.now() - startedAt);
        shrinkEndsAt = performance.now() + shrinkBudgetMs(settings.shrinkBudget ?? DEFAULT_SHRINK_BUDGET, longestCaseMs, remainingMs);
        if (shownAlready(failing.verdict.broken, settings.deadlineRulesFailed?.())) {
          notWorthShrinking = failing.verdict.broken;
          shrinkEndsAt = Number.NEGATIVE_INFINITY;
        }
      }
      lastFailure = failing;
      // The first failure is a sub-case of a generated batch (or, replaying, the case the path names).
      firstFailure ??= failing;
    }
    return failing === undefined;
  };

  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), {
    numRuns: numBatches,
    seed,
    path: replaying ? replayPath?.path : undefined,
    endOnFailure: replaying,
    plugins: [fc.interruptAfterTimeLimit(settings.timeLimitMs)],
  });
  over = true;
  while (running.size > 0) await Promise.allSettled([...running]);
  clearTimeout(timer);
  if (kitFault) throw kitFault;

  const timeLimit: PropertyTimeLimit | undefined = settings.timeLimitOrigin && { text: isoOfMs(settings.timeLimitMs), ms: settings.timeLimitMs, origin: settings.timeLimitOrigin };
  const base = { name: spec.name, numRuns: judged + shrinkJudged, shrinkRuns: shrinkJudged, casesAsked: planned, seed, interrupted: details.interrupted || cutShort, ...(timeLimit && { timeLimit }) };
  // Interrupted before any case ended (a very slow provisioner) is no failure: there is no counterexample.
  if (!details.failed || details.counterexample === null || !lastFailure) {
    return {
      ...base,
      status: 'passed',
      ruleIds: [],
      exchanges: [],
      notes: [],
      reruns: [],
      message: passedMessage(judged, planned, base.interrupted, timeLimit ? propertyTimeLimitInWords(timeLimit) : isoOfMs(settings.timeLimitMs)),
    };
  }

  const fcPath = details.counterexamplePath ?? undefined;
  let path = fcPath === undefined ? undefined : pathWithBatch(fcPath, size, own);
  let failure = lastFailure;
  const rerunsOf = async (record: SubCaseRecord<T>): Promise<PropertyResult['reruns']> => {
    const runs: PropertyResult['reruns'] = [];
    for (let i = 0; i < RERUNS && !context.signal.aborted && notWorthShrinking === undefined; i++) {
      // As the case was judged: beside its batch's other sub-cases when its verdict came from the batch, else alone.
      const verdict = await runBeside(record.beside, context.signal, (caseSuite) => runGuarded(spec, record.value, caseSuite, context.signal));
      const reproduced = verdict.broken.some((id) => record.verdict.broken.includes(id));
      runs.push({ reproduced, exchanges: verdict.exchanges, notes: verdict.notes });
      if (reproduced) break;
    }
    return runs;
  };
  let reruns = await rerunsOf(failure);
  // A smaller case shrinking found under the load of the moment may fail only now and then, and no re-run shows it
  // again. The case its batch found, run again beside that batch, may: it is then the counterexample, not minimal,
  // and its replay line (the batch's run and the case's place) shows what its re-runs did.
  const batchFailure = firstFailure;
  let fellBack = false;
  if (!replaying && spec.runAsLoad && batchFailure && batchFailure !== failure && batchFailure.beside && fcPath !== undefined && reruns.length > 0 && !reruns.some((r) => r.reproduced)) {
    const again = await rerunsOf(batchFailure);
    if (again.some((r) => r.reproduced)) {
      failure = batchFailure;
      reruns = again;
      fellBack = true;
      path = pathWithBatch(`${fcPath.split(':')[0]}:${batchFailure.beside.origin.index}`, size, own);
    }
  }
  // Load started beside the re-runs ends before the property does.
  while (running.size > 0) await Promise.allSettled([...running]);
  if (kitFault) throw kitFault;
  const flaky = reruns.length > 0 && !reruns.some((r) => r.reproduced);
  const replay = `--property ${spec.name} --seed ${seed}${path === undefined ? '' : ` --path ${path}`}`;
  const notMinimal = notWorthShrinking
    ? `; not minimal: not shrunk, nor run again: the run's scenarios already broke ${notWorthShrinking.join(', ')}, and each candidate would wait out the whole deadline to show it again`
    : fellBack
      ? `; not minimal: the smaller cases shrinking found failed once and none of ${RERUNS} re-runs showed them again, so this is the case its batch found, shown again beside that batch`
      : shrinkStopped ? `; not minimal: shrinking stopped after ${shrinkJudged} ${shrinkJudged === 1 ? 'candidate' : 'candidates'} (its budget: ${describeShrinkBudget(settings.shrinkBudget ?? DEFAULT_SHRINK_BUDGET)})` : '';
  return {
    ...base,
    status: flaky ? 'flaky' : 'failed',
    path,
    ruleIds: failure.verdict.broken,
    counterexample: spec.describe(failure.value),
    exchanges: failure.verdict.exchanges,
    notes: failure.verdict.notes,
    reruns,
    message: flaky
      ? `broke ${failure.verdict.broken.join(', ')} once, but none of ${reruns.length} re-runs did${notMinimal}; replay with ${replay}`
      : `broke ${failure.verdict.broken.join(', ')}${notMinimal}${replayRuns > 1 ? ` (on run ${replayRuns} of the replayed case beside its batch)` : ''}; replay with ${replay}`,
  };
}

async function runGuarded<T>(spec: PropertySpec<T>, value: T, caseSuite: string, signal: AbortSignal): Promise<CaseVerdict> {
  try {
    return await spec.runCase(value, caseSuite, signal);
  } catch (error) {
    // A case that threw is a fault of the kit, never of the provisioner.
    throw new InternalError(`${caseSuite}: the kit failed while running a case: ${messageOf(error)}`, { cause: error });
  }
}

/** Every rule the case broke is one the run already showed broken by outlasting the deadline. */
function shownAlready(broken: readonly string[], deadlineRulesFailed: ReadonlySet<string> | undefined): boolean {
  return deadlineRulesFailed !== undefined && broken.length > 0 && broken.every((id) => deadlineRulesFailed.has(id));
}

/** The shrinking budget in words, for the message of a counterexample it cut. */
function describeShrinkBudget(budget: { lengths: number; floorMs: number }): string {
  return `${budget.lengths} times its longest case, at least ${Math.round(budget.floorMs / 1000)} s, within the time limit`;
}

function freshSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}

/** `timeLimit` in words, with where it came from: a property it stopped says which limit to raise. */
function passedMessage(cases: number, asked: number, interrupted: boolean, timeLimit: string): string {
  if (cases === 0) return `got no case: stopped before its first case ended by its time limit ${timeLimit}`;
  const counted = cases < asked ? `${cases} of ${asked} cases` : `${cases} cases`;
  if (!interrupted) return `held over ${counted}`;
  return `held over ${counted} before its time limit ${timeLimit} stopped it`;
}
