import { besideOf, type Beside } from '../batch-load.js';
import type { SubCaseRecord } from '../batch-verdicts.js';
import { nextSuite, runSubCase } from './case-runs.js';
import { stopForKitFault, type EarlyCandidates, type EarlyVerdict, type PropertyRun } from './property-run.js';
import { shrinkOver } from './shrink-window.js';

/**
 * Where candidates follow from what ran (fast-check's commands), they run ahead only on the level fast-check is
 * at, in its order, as its stream gives them. Candidates of a level fast-check left behind still run for a while;
 * the next level's wait for their places, so that no more than `width` ever run at once.
 */
export class RunInOrder<T> implements EarlyCandidates<T> {
  private readonly started = new WeakMap<readonly T[], Promise<SubCaseRecord<T> | undefined>>();
  private inFlight = 0;
  private readonly placeFreed: Array<() => void> = [];

  constructor(private readonly run: PropertyRun<T>) {}

  /** fast-check took `batch` from its stream of candidates, `width` of which may run at once: it starts when it has a place. */
  start(batch: readonly T[], width: number): void {
    if (this.closed() || this.run.plan.replaying || this.started.has(batch) || this.run.verdicts.known(batch)) return;
    const root = this.run.arbitrary.rootOf(batch);
    const run = this.runWhenPlaced(batch[0]!, width, root && besideOf(root, false, width));
    // A kit error stops the property whether or not fast-check ever asks for this verdict.
    run.catch((error: unknown) => stopForKitFault(this.run, error));
    this.started.set(batch, run);
  }

  verdictOf(batch: readonly T[]): Promise<EarlyVerdict<T>> | undefined {
    return this.started.get(batch)?.then((record) => record && { record, ran: true });
  }

  private closed(): boolean {
    return this.run.state.over || this.run.limit.aborted || shrinkOver(this.run);
  }

  private async runWhenPlaced(value: T, width: number, beside: Beside<T> | undefined): Promise<SubCaseRecord<T> | undefined> {
    while (this.inFlight >= width) await new Promise<void>((freed) => this.placeFreed.push(freed));
    if (this.closed()) {
      this.placeFreed.shift()?.();
      return undefined;
    }
    this.inFlight++;
    try {
      return await runSubCase(this.run, value, nextSuite(this.run, 1)(0), beside);
    } finally {
      this.inFlight--;
      this.placeFreed.shift()?.();
    }
  }
}
