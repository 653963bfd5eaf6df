import type { Exchange, ExchangeTag, SubmitKind } from '../../src/transcript/exchange.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import type { PropertyContext } from './property.js';

export interface CaseSubmission {
  kind: SubmitKind;
  tag: ExchangeTag;
  body: string;
  caseSuite: string;
  /** The registered name of the change set sent, when the body is one. */
  changeSet?: string;
  signal: AbortSignal;
}

/**
 * Sends one POST of a property case and, when it is accepted, follows the operation with the run's poller
 * until its final answer and the probes after it: the case is judged on everything it caused.
 */
export async function submitCase(context: PropertyContext, submission: CaseSubmission): Promise<Exchange> {
  const answer = await context.client.send({
    suite: submission.caseSuite,
    tag: submission.tag,
    probe: submission.tag !== 'plan' && submission.tag !== 'apply',
    method: 'POST',
    path: `/${submission.kind}`,
    body: submission.body,
    changeSet: submission.changeSet,
    timeoutMs: context.submitTimeoutMs,
    signal: context.signal,
  });
  const operationId = acceptedOperationId(answer);
  if (operationId !== undefined && operationId !== '') {
    await context.poller.follow({
      accepted: answer,
      operationId,
      kind: submission.kind,
      changeSet: submission.changeSet,
      suite: submission.caseSuite,
      stop: submission.signal,
    });
    await context.poller.probesDone(operationId);
  }
  return answer;
}
