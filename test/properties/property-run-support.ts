import fc from 'fast-check';
import { afterEach } from 'vitest';
import { BatchArbitrary, type ShrinkAhead, type ShrinkNode } from '../../suites/properties/batch-arbitrary.js';
import { BatchVerdicts } from '../../suites/properties/batch-verdicts.js';
import { planProperty } from '../../suites/properties/check/property-plan.js';
import { startPropertyRun, type PropertyRun } from '../../suites/properties/check/property-run.js';
import type { CaseVerdict, PropertyContext, PropertySettings, PropertySpec } from '../../suites/properties/property.js';
import { givenTimeLimit } from '../support/time-limit.js';

export const HELD: CaseVerdict = { broken: [], exchanges: [], notes: [] };

export function broken(seq: number, ...ruleIds: string[]): CaseVerdict {
  return { broken: ruleIds.length > 0 ? ruleIds : ['answer.status'], exchanges: [seq], notes: [`case ${seq}`] };
}

/** A property of integers whose cases `runCase` judges. */
export function integerSpec(runCase: PropertySpec<number>['runCase'], more: Partial<PropertySpec<number>> = {}): PropertySpec<number> {
  return { name: 'property/unit', arbitrary: fc.integer({ min: 0, max: 1000 }), runCase, describe: (n) => `n = ${n}`, ...more };
}

/** What a test gives a run besides its spec: its settings, the run's signal, and the arbitrary's hooks for shrinking early. */
export interface RunOptions<T> {
  settings?: Partial<PropertySettings>;
  signal?: AbortSignal;
  caseEnded?: PropertyContext['caseEnded'];
  ahead?: Omit<ShrinkAhead<T>, 'width'> & { width?: number };
}

/**
 * Makes property runs as checkProperty does, on a fixed seed; their clocks are stopped after each test. A phase is
 * tested on such a run alone, without fast-check asking its questions.
 */
export function propertyRuns(): <T>(spec: PropertySpec<T>, options?: RunOptions<T>) => PropertyRun<T> {
  const made: Array<PropertyRun<unknown>> = [];
  afterEach(() => made.splice(0).forEach((run) => run.release()));
  return <T>(spec: PropertySpec<T>, options: RunOptions<T> = {}): PropertyRun<T> => {
    const settings: PropertySettings = { maxExamples: 10, timeLimit: givenTimeLimit(60_000), allowApplyGenerated: false, seed: 7, ...options.settings };
    const context = { settings, signal: options.signal ?? new AbortController().signal, ...(options.caseEnded && { caseEnded: options.caseEnded }) } as unknown as PropertyContext;
    const plan = planProperty(settings, spec);
    const { width = 1, ...hooks } = options.ahead ?? {};
    const arbitrary = new BatchArbitrary(Array.from({ length: plan.size }, () => spec.arbitrary), { width: () => width, ...hooks });
    const run = startPropertyRun({ spec, context, plan, arbitrary, verdicts: new BatchVerdicts(arbitrary) });
    made.push(run as PropertyRun<unknown>);
    return run;
  };
}

/**
 * The one-item batch of the integer `n`, shrunk by `arbitrary` as fast-check would shrink a failing case: the
 * arbitrary opens its node (telling the hooks) and gives its candidates' batches in fast-check's order.
 */
export function shrinkOne(arbitrary: BatchArbitrary<number>, n: number): { batch: number[]; candidates: number[][] } {
  const batch = [n];
  const candidates = [...arbitrary.shrink(batch, { items: [new fc.Value(n, undefined)], slots: [0] })].map((value) => value.value_);
  return { batch, candidates };
}

/** The shrink node of a one-item batch the arbitrary opened. */
export function nodeOf(arbitrary: BatchArbitrary<number>, batch: readonly number[]): ShrinkNode<number> {
  const node = arbitrary.nodeOf(batch);
  if (!node) throw new Error(`no shrink node for [${batch.join(', ')}]`);
  return node;
}

/** Resolves once every timer and I/O callback queued so far has run: the early runs' choices are made then. */
export function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A case that waits until the test lets it end, so that how many run at once can be seen. */
export class Gate {
  private readonly waiting: Array<{ n: number; release: (verdict: CaseVerdict) => void }> = [];
  peak = 0;

  readonly runCase = (n: number): Promise<CaseVerdict> =>
    new Promise((release) => {
      this.waiting.push({ n, release });
      this.peak = Math.max(this.peak, this.waiting.length);
    });

  get running(): number[] {
    return this.waiting.map((entry) => entry.n);
  }

  /** Ends the case of `n` with `verdict`. */
  end(n: number, verdict: CaseVerdict): void {
    const at = this.waiting.findIndex((entry) => entry.n === n);
    if (at < 0) throw new Error(`case ${n} is not running`);
    this.waiting.splice(at, 1)[0]!.release(verdict);
  }
}
