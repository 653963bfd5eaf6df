import type { SubmitKind } from '../transcript/exchange.js';
import type { ChangeSet } from './change-set.js';
import type { OutcomeBody } from './outcomes.js';

/** What reads have seen of an operation. Only faults that imitate stateful reads act on it; it is not stored. */
export interface ReadHistory {
  /** Reads answered before the final answer was first given. */
  readsBeforeFinal: number;
  /** A read has been answered with the final answer. */
  finalGiven: boolean;
  /** When that read was answered, Unix ms. */
  finalGivenAt?: number;
  /** Reads answered after that. */
  readsAfterFinal: number;
}

/** The work behind one 202 answer. Its state follows from the clock, so nothing runs in the background. */
export interface Operation {
  id: string;
  kind: SubmitKind;
  changeSet: ChangeSet;
  /** Times are Unix milliseconds, so that they mean the same to a process started later. */
  acceptedAt: number;
  /** Reads before this time answer as if the id were unknown. */
  knownFrom: number;
  /** The work ends at this time; Infinity when it never does. */
  finishesAt: number;
  /** The answer once the work has ended, fixed when the work was accepted. */
  final: OutcomeBody;
  history: ReadHistory;
}

export interface OperationTimes {
  knownFrom: number;
  finishesAt: number;
}
