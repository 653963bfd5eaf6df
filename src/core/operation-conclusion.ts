/**
 * Why following an operation ended. final: a final answer was received; lost: a 404 before any final
 * answer; deadline: maxOperationDuration passed since the 202; aborted: the run or the case was stopped.
 */
export type PollEndReason = 'final' | 'lost' | 'deadline' | 'aborted';

/** What the control plane would have concluded for one accepted operation. */
export interface OperationConclusion {
  operationId: string;
  changeSet?: string;
  kind: 'plan' | 'apply';
  reason: PollEndReason;
  /** In one sentence, e.g. "the control plane would record succeeded after 1.2s". */
  conclusion: string;
}
