import type { Millis } from '../core/time.js';
import type { JudgedOperations } from './judged-progress.js';
import type { StoredResponse } from '../transcript/stored-response.js';
import type { ObservedExchange } from './recorder.js';
import type { RuleBreaks } from './rule-breaks.js';
import type { SeenChangeSet } from './seen-change-set.js';
import type { JudgeTally, StreamingJudgeSettings } from './streaming-judge.js';

/** What the judges' worker thread is started with: the judge's settings, as plain data. */
export interface JudgeWorkerData {
  settings: Omit<StreamingJudgeSettings, 'onChangeSet' | 'onJudged'>;
  /** Send each change set back the first time it is seen (`--record-change-sets`): files are written beside the proxy. */
  keepChangeSets: boolean;
  /** Send back the rules broken and how far the operations got, for the lines told while observing. */
  tellNews?: { showSecrets: boolean };
}

/**
 * An exchange as it is posted to the judges: without the parsed value of a body it holds whole, which the judges'
 * thread parses again. Copying a parsed tree from thread to thread costs more than its text.
 */
export type PostedExchange = Omit<ObservedExchange, 'response'> & { response?: StoredResponse };

/** From the proxy's thread to the judges, in the order the traffic had them. */
export type ToJudgeWorker =
  | { kind: 'exchange'; exchange: PostedExchange }
  /** A request that is none of the contract's: counted, not judged. */
  | { kind: 'other' }
  /** End the operations that had no final answer by `at` at their deadline. */
  | { kind: 'sweep'; at: Millis }
  /** Ask for everything judged so far, once what was sent before is judged; with `finishAt`, end the observation there first. */
  | { kind: 'tally'; id: number; finishAt?: Millis };

/** From the judges back to the proxy's thread. */
export type FromJudgeWorker =
  /** How many more exchanges (and other requests) were taken since the last word: the queue toward the judges is that much shorter. */
  | { kind: 'judged'; count: number }
  | { kind: 'tally'; id: number; tally: JudgeTally }
  | { kind: 'tally-failed'; id: number; message: string }
  /** Judging something failed; `exchange`: an exchange whose judging failed part way. */
  | { kind: 'failed'; what: string; message: string; exchange: boolean }
  | { kind: 'change-set'; changeSet: SeenChangeSet }
  /** Rules broken since the last word: the first break of each in full, every break counted. */
  | { kind: 'breaks'; breaks: RuleBreaks }
  /** How far the operations got, when it changed. */
  | { kind: 'operations'; operations: JudgedOperations };
