import type { Exchange, ExchangeTag, SubmitKind } from '../src/transcript/exchange.js';
import type { SuiteContext } from './suite.js';

export interface PostRequest {
  suite: string;
  kind: SubmitKind;
  body: string;
  /** Defaults to the kind: a plan or apply with a change set. Bad-input probes say what they send. */
  tag?: ExchangeTag;
  changeSet?: string;
  /** The seq of the POST this one sends again byte for byte. */
  repeatOf?: number;
}

/** Sends a body to POST /plan or POST /apply through the run's recording client, with the submit time limit. */
export function post(context: SuiteContext, request: PostRequest): Promise<Exchange> {
  const tag = request.tag ?? request.kind;
  return context.client.send({
    suite: request.suite,
    tag,
    probe: tag !== 'plan' && tag !== 'apply',
    method: 'POST',
    path: `/${request.kind}`,
    body: request.body,
    changeSet: request.changeSet,
    repeatOf: request.repeatOf,
    timeoutMs: context.submitWaitMs,
    signal: context.signal,
  });
}
