import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import type { Suite, SuiteContext } from '../suite.js';
import { post } from '../post.js';
import { followAnswer } from './follow.js';
import { repeatAfterEnd } from './repeat-apply.js';
import { repeatWhileRunning } from './repeat-while-running.js';
import { submitAndFollow } from './submit.js';

const SUITE = 'scenario/plan-and-apply';

/**
 * The control plane's everyday story: each change set is planned (twice, at once, which also shows
 * whether operation ids are reused and whether plans agree) and applied. Plans of every change set
 * run together; applies for one application and environment wait for each other, as the control
 * plane's lock makes them. Each apply is repeated: once while it runs (right after its 202) and once
 * more after it ended, as a later run for the same lock.
 */
export const planAndApply: Suite = {
  name: SUITE,
  async run(context: SuiteContext): Promise<void> {
    const plans = context.changeSets.flatMap((changeSet) => [
      submitAndFollow(context, SUITE, 'plan', changeSet),
      submitAndFollow(context, SUITE, 'plan', changeSet),
    ]);
    const applies = context.planOnly ? [] : applyUnderLocks(context);
    await Promise.all([...plans, ...applies]);
  },
};

function applyUnderLocks(context: SuiteContext): Promise<unknown>[] {
  const chains = new Map<string, Promise<unknown>>();
  for (const changeSet of context.changeSets) {
    const previous = chains.get(changeSet.lockKey) ?? Promise.resolve();
    chains.set(
      changeSet.lockKey,
      previous.then(() => (context.signal.aborted ? undefined : applyAndRepeat(context, changeSet))),
    );
  }
  return [...chains.values()];
}

/** One apply, its repeat while it runs (both followed to their ends), then its repeat after the end. */
async function applyAndRepeat(context: SuiteContext, changeSet: LoadedChangeSet): Promise<void> {
  const first = await post(context, { suite: SUITE, kind: 'apply', body: changeSet.text, changeSet: changeSet.name });
  await Promise.all([followAnswer(context, SUITE, 'apply', changeSet, first), repeatWhileRunning(context, first, changeSet)]);
  if (!context.signal.aborted) await repeatAfterEnd(context, first, changeSet);
}
