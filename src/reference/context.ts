import type { OperationIdSource } from './operation-ids.js';
import type { OperationStore } from './operations.js';
import type { ResolvedOptions } from './options.js';

/** What the handlers of one running reference share. */
export interface ReferenceContext {
  options: ResolvedOptions;
  store: OperationStore;
  nextOperationId: OperationIdSource;
  /** Aborted when the server closes, so that answers held back stop waiting. */
  closing: AbortSignal;
  /** Monotonic milliseconds. */
  now(): number;
}
