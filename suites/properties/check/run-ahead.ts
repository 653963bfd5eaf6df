import type { ShrinkNode } from '../batch-arbitrary.js';
import { besideOf } from '../batch-load.js';
import type { SubCaseRecord } from '../batch-verdicts.js';
import { FailRates, nextToRun, type AheadState } from '../shrink-ahead.js';
import { shrinkWidthFor } from '../shrink-budget.js';
import { nextSuite, runSubCase } from './case-runs.js';
import { stopForKitFault, type EarlyCandidates, type EarlyVerdict, type PropertyRun } from './property-run.js';
import { shrinkOver } from './shrink-window.js';

/**
 * Shrink candidates run ahead of fast-check's questions, for properties whose candidates follow from the value
 * alone, so that shrinking against slow work takes rounds of several candidates, and several levels, rather than
 * one operation length per candidate (shrink-ahead.ts). Never while replaying: fast-check walks the path through
 * streams without asking for verdicts. Candidates fast-check left behind still run to their end and hold their
 * places, so that no more than `width` ever run at once. A candidate still waiting for its place when the property
 * ends never runs: its record is undefined.
 *
 * Runs are keyed by the case a node sends when the property says which cases are the same: shrinking meets the
 * same candidate again and again (the same items dropped at every level), and one run gives its verdict to all.
 */
export class RunAhead<T> implements EarlyCandidates<T> {
  private readonly runs = new Map<unknown, { node: ShrinkNode<T>; run: Promise<SubCaseRecord<T>> }>();
  private readonly states = new Map<unknown, AheadState>();
  private readonly keys = new WeakMap<ShrinkNode<T>, unknown>();
  private readonly failRates = new FailRates();
  private root: ShrinkNode<T> | undefined;
  private width = 1;
  private inFlight = 0;
  private placeFreed: Array<() => void> = [];
  private fillPending = false;

  constructor(private readonly run: PropertyRun<T>) {}

  /** fast-check is about to try the candidates of the failing `node`: up to `width` of them start now. */
  opened(node: ShrinkNode<T>, width: number): void {
    if (this.run.plan.replaying) return;
    this.root = node;
    this.width = shrinkWidthFor(width, this.run.spec.slowShrinkWidth, this.run.state.longestCaseMs);
    this.fill();
  }

  verdictOf(batch: readonly T[]): Promise<EarlyVerdict<T>> | undefined {
    if (this.root === undefined || this.run.state.lastFailure === undefined) return undefined;
    const node = this.run.arbitrary.nodeOf(batch);
    return node && this.recordOf(node);
  }

  /** The record of a candidate, run ahead or started now as soon as it has a place; `ran` says whether it ran for this node. */
  private async recordOf(node: ShrinkNode<T>): Promise<EarlyVerdict<T>> {
    for (;;) {
      const entry = this.runs.get(this.keyOf(node));
      if (entry) return { record: await entry.run, ran: entry.node === node };
      if (this.stopped()) return undefined;
      this.fill();
      if (this.runs.has(this.keyOf(node))) continue;
      if (this.inFlight < this.width) this.start(node);
      else await new Promise<void>((freed) => this.placeFreed.push(freed));
    }
  }

  private keyOf(node: ShrinkNode<T>): unknown {
    const { caseKey } = this.run.spec;
    if (!caseKey) return node;
    if (!this.keys.has(node)) this.keys.set(node, caseKey(node.batch[0]!));
    return this.keys.get(node);
  }

  private stopped(): boolean {
    return this.run.state.over || this.run.limit.aborted || this.run.plan.replaying || shrinkOver(this.run);
  }

  /** Fills the free places with the candidates likeliest to be asked for; the next one fast-check asks for comes first. */
  private fill(): void {
    if (this.root === undefined || this.stopped() || this.inFlight >= this.width) return;
    const failRate = (index: number, parentIndex: number): number => this.failRates.at(index, parentIndex);
    const next = nextToRun(this.root, this.width - this.inFlight, (node) => this.states.get(this.keyOf(node)), { failRate, deep: this.run.spec.candidatesFromValue === true });
    next.forEach((node) => this.start(node));
  }

  /** Verdicts of a round end close together: choose once those ending at the same moment are all known. */
  private fillSoon(): void {
    if (this.fillPending) return;
    this.fillPending = true;
    setImmediate(() => {
      this.fillPending = false;
      this.fill();
    });
  }

  private start(node: ShrinkNode<T>): void {
    const key = this.keyOf(node);
    // Chosen twice in one round as two candidates that send the same: one run serves both.
    if (this.runs.has(key)) return;
    const root = this.run.arbitrary.rootOf(node.batch);
    this.states.set(key, 'running');
    this.inFlight++;
    const run = runSubCase(this.run, node.batch[0]!, nextSuite(this.run, 1)(0), root && besideOf(root, false, this.width))
      .then((record) => {
        const failed = record.verdict.broken.length > 0;
        this.states.set(key, failed ? 'failed' : 'held');
        this.failRates.record(node.index, node.parentIndex, failed);
        return record;
      })
      .finally(() => {
        this.inFlight--;
        this.fillSoon();
        const waiting = this.placeFreed;
        this.placeFreed = [];
        waiting.forEach((freed) => freed());
      });
    // A kit error stops the property whether or not fast-check ever asks for this verdict.
    run.catch((error: unknown) => stopForKitFault(this.run, error));
    this.runs.set(key, { node, run });
  }
}
