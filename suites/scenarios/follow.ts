import type { Exchange, SubmitKind } from '../../src/transcript/exchange.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import type { SuiteContext } from '../suite.js';

/** When a POST was accepted, follows its operation to its end as the control plane would. */
export async function followAnswer(context: SuiteContext, suite: string, kind: SubmitKind, changeSet: LoadedChangeSet, answer: Exchange): Promise<void> {
  const operationId = acceptedOperationId(answer);
  if (operationId !== undefined && operationId !== '') {
    context.concluded(await context.poller.follow({ accepted: answer, operationId, kind, changeSet: changeSet.name, suite }));
  }
}
