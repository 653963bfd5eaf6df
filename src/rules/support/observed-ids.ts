import { formatMs } from '../../core/duration.js';
import type { JudgeContext } from '../../core/judge-context.js';

/**
 * Which reads of observed traffic name ids the provisioner never issued. An observer sees only the 202s given
 * while it ran: work accepted before it began is read by the control plane until its final answer or its
 * deadline, and a poll interval later at most. So a UUID never accepted in the observation is known to be
 * unknown only when its first read comes after the observation has run that long; an id that is no UUID is
 * malformed only when every id the provisioner was seen giving was a UUID.
 */

/** How long an observation runs before a UUID first read then and never accepted in it is an unknown id. */
export function unknownIdsAfterMs(context: Pick<JudgeContext, 'maxOperationDuration' | 'pollIntervalMs'>): number {
  return context.maxOperationDuration.ms + context.pollIntervalMs;
}

/** Why observed traffic had no read of an unknown id, with the criterion it is judged by. */
export function noObservedUnknownRead(context: Pick<JudgeContext, 'maxOperationDuration' | 'pollIntervalMs'>): string {
  return `no read named a UUID never accepted in the observation and first read after it had run ${formatMs(unknownIdsAfterMs(context))} (the operation deadline and a poll interval): an id read earlier may have been issued before the observation began`;
}

/** Why observed traffic had no read of a malformed id. */
export const NO_OBSERVED_MALFORMED_READ = 'no read named an id that is not a UUID while every operationId the provisioner was seen giving was one';
