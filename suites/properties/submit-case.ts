import type { Exchange, ExchangeTag, SubmitKind } from '../../src/transcript/exchange.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import type { PropertyContext } from './property.js';
import { post } from '../post.js';

export interface CaseSubmission {
  kind: SubmitKind;
  tag: ExchangeTag;
  body: string;
  caseSuite: string;
  /**
   * The suite its exchanges are tagged with, when not the case's own: a repeat goes as the suite of its
   * situation, by which the repeat rules find it, and names the case as its change set.
   */
  suite?: string;
  /** The registered name of the change set sent, when the body is one. */
  changeSet?: string;
  /** The seq of the POST of the case this one sends again byte for byte. */
  repeatOf?: number;
  signal: AbortSignal;
}

/**
 * Sends one POST of a property case and, when it is accepted, follows the operation with the run's poller
 * until its final answer and the probes after it: the case is judged on everything it caused.
 */
export async function submitCase(context: PropertyContext, submission: CaseSubmission): Promise<Exchange> {
  const suite = submission.suite ?? submission.caseSuite;
  const answer = await post(context, {
    suite,
    kind: submission.kind,
    tag: submission.tag,
    body: submission.body,
    changeSet: submission.changeSet,
    repeatOf: submission.repeatOf,
  });
  const operationId = acceptedOperationId(answer);
  if (operationId !== undefined && operationId !== '') {
    await context.poller.follow({
      accepted: answer,
      operationId,
      kind: submission.kind,
      changeSet: submission.changeSet,
      suite,
      stop: submission.signal,
    });
    await context.poller.readsAfterFinalDone(operationId);
  }
  return answer;
}
