import type { SubmitKind } from '../../../src/transcript/exchange.js';
import type { ModelState, TrackedOperation } from './model.js';

/**
 * What a model-based case waits for one after another, counted in operation-lengths (the longest a plan or an
 * apply of the provisioner takes) from the moment the properties start. A submit starts work that ends one
 * operation-length later at the latest; a follow waits until the followed work has ended; the end of the case
 * follows what is still open. Reads and waits take moments, not operation-lengths. The count is the case's own,
 * not the provisioner's: it takes every submit as accepted and every operation as taking the longest time, so a
 * replay or a shrink candidate is bounded exactly as its case was, whatever the provisioner answers.
 */

/**
 * The earliest operation-length in which a case's apply starts: the properties start once the burst is over (one
 * operation-length into the run), and a case's apply waits for the scenarios' applies, which end two in (an apply,
 * then its repeat after the end).
 */
export const APPLIES_START_AT = 1;

/** By when the work a submit of `kind` sent now ends at the latest. */
export function endOfWork(model: Readonly<ModelState>, kind: SubmitKind): number {
  const start = kind === 'apply' ? Math.max(model.waited, APPLIES_START_AT) : model.waited;
  return start + 1;
}

/** Whether a submit of `kind` sent now keeps every wait of the case within `maxChain` operation-lengths. */
export function withinChain(model: Readonly<ModelState>, kind: SubmitKind, maxChain: number): boolean {
  return endOfWork(model, kind) <= maxChain;
}

/** A follow has waited until the work of `op` ended. */
export function noteFollowed(model: ModelState, op: TrackedOperation): void {
  model.waited = Math.max(model.waited, op.endsBy);
}
