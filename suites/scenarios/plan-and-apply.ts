import type { Suite, SuiteContext } from '../suite.js';
import { submitAndFollow } from './submit.js';

const SUITE = 'scenario/plan-and-apply';

/**
 * The control plane's everyday story: each change set is planned (twice, at once, which also shows
 * whether operation ids are reused for the same change set) and applied. Plans of every change set
 * run together; applies for one application and environment wait for each other, as the control
 * plane's lock makes them.
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
      previous.then(() => (context.signal.aborted ? undefined : submitAndFollow(context, SUITE, 'apply', changeSet))),
    );
  }
  return [...chains.values()];
}
