import type { CallLog } from './calls.js';
import type { OperationIdSource } from './operation-ids.js';
import type { OperationStore } from './operations.js';
import type { ResolvedOptions } from './options.js';
import type { Seams } from './seams.js';

/** What the handlers of one running reference share; a restart builds a new one around the same store backend. */
export interface ReferenceContext {
  options: ResolvedOptions;
  /** The active fault's seams; empty for the correct reference. */
  seams: Seams;
  store: OperationStore;
  calls: CallLog;
  nextOperationId: OperationIdSource;
  /** Aborted when the server closes, so that answers held back stop waiting. */
  closing: AbortSignal;
  /** Unix milliseconds: stored times must mean the same after a restart. */
  now(): number;
}
