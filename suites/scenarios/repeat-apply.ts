import type { Exchange } from '../../src/transcript/exchange.js';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import type { SuiteContext } from '../suite.js';
import { post } from '../post.js';
import { followAnswer } from './follow.js';

const SUITE = SITUATION_SUITES.repeatApply;

/**
 * Sends an apply again, byte for byte, once the first has ended (a later run of the control plane for
 * the same application and environment), and follows it to its end. apply.idempotent compares the ends.
 */
export async function repeatAfterEnd(context: SuiteContext, first: Exchange, changeSet: LoadedChangeSet): Promise<void> {
  const repeat = await post(context, { suite: SUITE, kind: 'apply', body: changeSet.text, changeSet: changeSet.name, repeatOf: first.seq });
  await followAnswer(context, SUITE, 'apply', changeSet, repeat);
}
