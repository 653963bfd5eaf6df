import type { Exchange } from '../../src/transcript/exchange.js';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import type { SuiteContext } from '../suite.js';
import { post } from '../post.js';
import { followAnswer } from './follow.js';

const SUITE = SITUATION_SUITES.repeatWhileRunning;

/**
 * Sends an apply again, byte for byte, right after the first was accepted with 202 and before its final
 * answer, as the control plane does when a 202 is lost on the network; then follows it to its end. The
 * one deliberate exception to the lock per application and environment. A first apply answered at once
 * (200) was never in progress: nothing is sent.
 */
export async function repeatWhileRunning(context: SuiteContext, first: Exchange, changeSet: LoadedChangeSet): Promise<void> {
  const repeat = await sendRepeatWhileRunning(context, first, changeSet);
  if (repeat) await followRepeatWhileRunning(context, changeSet, repeat);
}

/** Sends the apply again at once when the first was accepted; resolves to its answer, or undefined when nothing was sent. */
export async function sendRepeatWhileRunning(context: SuiteContext, first: Exchange, changeSet: LoadedChangeSet): Promise<Exchange | undefined> {
  if (!acceptedOperationId(first) || context.signal.aborted) return undefined;
  return post(context, { suite: SUITE, kind: 'apply', body: changeSet.text, changeSet: changeSet.name, repeatOf: first.seq });
}

/** Follows the apply sent again while the first ran to its end. */
export function followRepeatWhileRunning(context: SuiteContext, changeSet: LoadedChangeSet, repeat: Exchange): Promise<void> {
  return followAnswer(context, SUITE, 'apply', changeSet, repeat);
}
