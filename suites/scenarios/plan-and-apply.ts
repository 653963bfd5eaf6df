import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import type { Suite, SuiteContext } from '../suite.js';
import { post } from '../post.js';
import { followAnswer } from './follow.js';
import { repeatAfterEnd } from './repeat-apply.js';
import { repeatWhileRunning } from './repeat-while-running.js';
import { submitAndFollow } from './submit.js';

const SUITE = 'scenario/plan-and-apply';

/**
 * The control plane's everyday story: each change set is planned (twice, at once, which also shows
 * whether operation ids are reused and whether plans agree) and applied. Plans of every change set run
 * together. Applies go as the control plane runs them: one run per application and environment at a
 * time (its lock), and a run applies all its resource types at once, one change set per type. Each apply
 * is repeated once while it runs (right after its 202), and once more after the whole run ended, as the
 * next run for the same lock.
 */
export const planAndApply: Suite = {
  name: SUITE,
  // Each plan is a case; so is each apply, its repeats included.
  cases: (context) => context.changeSets.length * (context.planOnly ? 2 : 3),
  async run(context: SuiteContext): Promise<void> {
    const plan = async (changeSet: LoadedChangeSet): Promise<void> => {
      await submitAndFollow(context, SUITE, 'plan', changeSet);
      context.caseEnded?.();
    };
    const plans = context.changeSets.flatMap((changeSet) => [plan(changeSet), plan(changeSet)]);
    const applies = context.planOnly ? [] : [...byLock(context.changeSets).values()].map((sets) => applyInRuns(context, sets));
    await Promise.all([...plans, ...applies]);
  },
};

function byLock(changeSets: readonly LoadedChangeSet[]): Map<string, LoadedChangeSet[]> {
  const locks = new Map<string, LoadedChangeSet[]>();
  for (const changeSet of changeSets) locks.set(changeSet.lockKey, [...(locks.get(changeSet.lockKey) ?? []), changeSet]);
  return locks;
}

/**
 * The change sets of one lock as control-plane runs: each joins the first run that has no change set of its
 * resource type yet; one whose type is unknown runs alone, since it may share a type with any other.
 */
export function runsOf(changeSets: readonly LoadedChangeSet[]): LoadedChangeSet[][] {
  const runs: LoadedChangeSet[][] = [];
  for (const changeSet of changeSets) {
    const type = changeSet.resourceType;
    const run = type === undefined ? undefined : runs.find((candidate) => candidate.every((other) => other.resourceType !== undefined && other.resourceType !== type));
    if (run) run.push(changeSet);
    else runs.push([changeSet]);
  }
  return runs;
}

/** One lock's runs one after another; each run's applies (and their repeats while running) at once, then its repeats after the end. */
async function applyInRuns(context: SuiteContext, changeSets: readonly LoadedChangeSet[]): Promise<void> {
  for (const run of runsOf(changeSets)) {
    if (context.signal.aborted) return;
    const firsts = await Promise.all(run.map((changeSet) => applyWhileRepeating(context, changeSet)));
    if (context.signal.aborted) return;
    await Promise.all(
      run.map(async (changeSet, index) => {
        await repeatAfterEnd(context, firsts[index]!, changeSet);
        context.caseEnded?.();
      }),
    );
  }
}

/** One apply and its repeat while it runs, both followed to their ends; resolves to the first apply's answer. */
async function applyWhileRepeating(context: SuiteContext, changeSet: LoadedChangeSet): Promise<Exchange> {
  const first = await post(context, { suite: SUITE, kind: 'apply', body: changeSet.text, changeSet: changeSet.name });
  await Promise.all([followAnswer(context, SUITE, 'apply', changeSet, first), repeatWhileRunning(context, first, changeSet)]);
  return first;
}
