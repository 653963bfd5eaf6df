/**
 * Why following an operation ended. final: a final answer was received; lost: a 404 before any final
 * answer; unexpected: a 200 read whose body is no operation answer, on which the control plane fails the
 * work at once; deadline: maxOperationDuration passed since the 202; aborted: the run or the case was stopped.
 */
export type PollEndReason = 'final' | 'lost' | 'unexpected' | 'deadline' | 'aborted';

/** What the control plane would have concluded for one accepted operation. */
export interface OperationConclusion {
  operationId: string;
  changeSet?: string;
  kind: 'plan' | 'apply';
  reason: PollEndReason;
  /** In one sentence, e.g. "the control plane would record succeeded after 1.2s". */
  conclusion: string;
}
