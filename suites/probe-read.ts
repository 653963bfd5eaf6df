import type { Exchange } from '../src/transcript/exchange.js';
import type { SuiteContext } from './suite.js';

export interface ProbeRead {
  suite: string;
  tag: 'read-unknown' | 'read-malformed' | 'read-after-final';
  /** The id as the judges name it. */
  operationId: string;
  /** The id as it goes into the path, already encoded; the id itself when absent. */
  path?: string;
  /** Stops the read; the run's signal when absent. */
  signal?: AbortSignal;
}

/** Reads an id with the read time limit, as a probe: one the provisioner never issued (an unknown UUID, a malformed id), or a finished operation's. */
export function probeRead(context: SuiteContext, read: ProbeRead): Promise<Exchange> {
  return context.client.send({
    suite: read.suite,
    tag: read.tag,
    probe: true,
    method: 'GET',
    path: `/operations/${read.path ?? read.operationId}`,
    operationId: read.operationId,
    timeoutMs: context.answerTimeoutMs,
    signal: read.signal ?? context.signal,
  });
}
