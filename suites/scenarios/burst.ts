import type { SubmitKind } from '../../src/transcript/exchange.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import { post } from '../post.js';
import type { Suite, SuiteContext } from '../suite.js';

const SUITE = SITUATION_SUITES.burst;

export interface BurstSettings {
  /** Calls sent at once (--burst). */
  calls: number;
  /** Every second call is an apply (--burst-apply); such applies ignore the control plane's lock. */
  applies: boolean;
}

/**
 * Sends `calls` plan (and apply) calls at the same moment, spread over the run's change sets, and
 * follows every accepted operation to its end. Plans change nothing, so the burst runs alongside the
 * other scenarios. Its operations are left out of the run's list of conclusions: capacity.burst
 * counts them.
 */
export function burstSuite(settings: BurstSettings): Suite {
  return {
    name: SUITE,
    cases: (context) => (context.changeSets.length === 0 ? 0 : settings.calls),
    async run(context: SuiteContext): Promise<void> {
      const sets = context.changeSets;
      if (sets.length === 0) return;
      await Promise.all(
        Array.from({ length: settings.calls }, async (_, index) => {
          const changeSet = sets[index % sets.length]!;
          const kind: SubmitKind = settings.applies && !context.planOnly && index % 2 === 1 ? 'apply' : 'plan';
          const answer = await post(context, { suite: SUITE, kind, body: changeSet.text, changeSet: changeSet.name });
          const operationId = acceptedOperationId(answer);
          if (operationId) await context.poller.follow({ accepted: answer, operationId, kind, changeSet: changeSet.name, suite: SUITE });
          context.caseEnded?.();
        }),
      );
    },
  };
}
