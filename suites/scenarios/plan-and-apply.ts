import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import type { Suite, SuiteContext } from '../suite.js';
import { post } from '../post.js';
import { followAnswer } from './follow.js';
import { repeatAfterEnd } from './repeat-apply.js';
import { followRepeatWhileRunning, sendRepeatWhileRunning } from './repeat-while-running.js';

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
  // Its plans and each lock's first applies are the work a restart finds in progress.
  opensRun: true,
  async run(context: SuiteContext): Promise<void> {
    // The opening calls: every plan, and each lock's first run of applies with their repeats while running.
    const opening: Array<Promise<readonly Exchange[]>> = [];
    const plan = async (changeSet: LoadedChangeSet): Promise<void> => {
      const answer = post(context, { suite: SUITE, kind: 'plan', body: changeSet.text, changeSet: changeSet.name });
      opening.push(answer.then((sent) => [sent]));
      await followAnswer(context, SUITE, 'plan', changeSet, await answer);
      context.caseEnded?.();
    };
    const plans = context.changeSets.flatMap((changeSet) => [plan(changeSet), plan(changeSet)]);
    const applies = context.planOnly ? [] : [...byLock(context.changeSets).values()].map((sets) => applyInRuns(context, sets, opening));
    const told = context.openingAnswered;
    if (told) void Promise.all(opening).then((answers) => told(answers.flat()), () => told([]));
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

/**
 * One lock's runs one after another; each run's applies (and their repeats while running) at once, then its repeats
 * after the end. The answers of the first run's applies and repeats go to `opening`, as they are sent.
 */
async function applyInRuns(context: SuiteContext, changeSets: readonly LoadedChangeSet[], opening: Array<Promise<readonly Exchange[]>>): Promise<void> {
  for (const [index, run] of runsOf(changeSets).entries()) {
    if (context.signal.aborted) return;
    const firsts = await Promise.all(run.map((changeSet) => applyWhileRepeating(context, changeSet, index === 0 ? opening : undefined)));
    // Work that ended before the restart began is repeated once it is over, where the repeat rules see it.
    await context.restartEnded;
    if (context.signal.aborted) return;
    await Promise.all(
      run.map(async (changeSet, index) => {
        await repeatAfterEnd(context, firsts[index]!, changeSet);
        context.caseEnded?.();
      }),
    );
  }
}

/**
 * One apply and its repeat while it runs, both followed to their ends; resolves to the first apply's answer. With
 * `opening`, the answers of both calls are told there once they have come.
 */
async function applyWhileRepeating(context: SuiteContext, changeSet: LoadedChangeSet, opening?: Array<Promise<readonly Exchange[]>>): Promise<Exchange> {
  const sent = post(context, { suite: SUITE, kind: 'apply', body: changeSet.text, changeSet: changeSet.name });
  const repeated = sent.then((first) => sendRepeatWhileRunning(context, first, changeSet));
  opening?.push(Promise.all([sent, repeated]).then(([first, repeat]) => (repeat ? [first, repeat] : [first])));
  const first = await sent;
  const following = followAnswer(context, SUITE, 'apply', changeSet, first);
  const repeat = await repeated;
  await Promise.all([following, repeat ? followRepeatWhileRunning(context, changeSet, repeat) : undefined]);
  return first;
}
