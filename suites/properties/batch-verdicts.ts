import type { BatchArbitrary } from './batch-arbitrary.js';
import type { Beside } from './batch-load.js';
import type { CaseVerdict } from './property.js';

/** One sub-case of a batch as it ran: its value, the suite its exchanges are tagged with, and its verdict. */
export interface SubCaseRecord<T> {
  value: T;
  caseSuite: string;
  verdict: CaseVerdict;
  /** What ran beside it when it was judged, to run beside it again (batch-load.ts); absent: nothing, or nothing known. */
  beside?: Beside<T>;
}

/** A sub-case the batch left out (past the number of cases asked for): never sent, so never shrunk to. */
export const SKIPPED = 'skipped';

export type SubCaseOutcome<T> = SubCaseRecord<T> | typeof SKIPPED;

/**
 * The verdicts of the batches a property ran, kept so that shrinking a batch to one of its sub-cases does not
 * send that sub-case again: it already ran, and its verdict is known. Only an aid: when the link from a
 * one-item batch to its batch is lost, the sub-case simply runs again.
 */
export class BatchVerdicts<T> {
  private readonly byBatch = new WeakMap<readonly T[], ReadonlyArray<SubCaseOutcome<T>>>();

  constructor(private readonly arbitrary: BatchArbitrary<T>) {}

  remember(batch: readonly T[], outcomes: ReadonlyArray<SubCaseOutcome<T>>): void {
    this.byBatch.set(batch, outcomes);
  }

  /** What a one-item batch shrunk out of a batch that ran already got there; undefined when it must run. */
  known(batch: readonly T[]): SubCaseOutcome<T> | undefined {
    if (batch.length !== 1) return undefined;
    const origin = this.arbitrary.originOf(batch);
    if (!origin) return undefined;
    const outcome = this.byBatch.get(origin.batch)?.[origin.index];
    if (outcome === SKIPPED) return outcome;
    return outcome?.value === batch[0] ? outcome : undefined;
  }
}
