import type { Exchange, SubmitKind } from '../../src/transcript/exchange.js';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import type { SuiteContext } from '../suite.js';
import { post } from '../post.js';
import { followAnswer } from './follow.js';

/** Sends a change set to plan or apply and, when it is accepted, follows the operation to its end. */
export async function submitAndFollow(context: SuiteContext, suite: string, kind: SubmitKind, changeSet: LoadedChangeSet): Promise<Exchange> {
  const answer = await post(context, { suite, kind, body: changeSet.text, changeSet: changeSet.name });
  await followAnswer(context, suite, kind, changeSet, answer);
  return answer;
}
