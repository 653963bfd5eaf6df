import { setMaxListeners } from 'node:events';
import type { BatchArbitrary } from '../batch-arbitrary.js';
import type { BatchVerdicts, SubCaseRecord } from '../batch-verdicts.js';
import type { PropertyContext, PropertySettings, PropertySpec } from '../property.js';
import type { PropertyPlan } from './property-plan.js';

/** What a property run has seen so far: the one mutable part its phases share. */
export interface RunState<T> {
  /** fast-check stopped asking, or a kit error stopped the property: a verdict that comes now changes nothing. */
  over: boolean;
  /** Our own clock struck just before fast-check's: cases skipped for it make the property interrupted too. */
  cutShort: boolean;
  /** The first error of the kit itself: the property stops and throws it rather than blame the provisioner. */
  kitFault?: Error;
  /** Suite numbers given out so far, one per batch or case run apart. */
  batches: number;
  /**
   * Sub-cases whose verdicts the property took while generating, and candidates tried while shrinking. The live
   * progress, the log line and the result all count these, and nothing else: a case the limit cut off, or a
   * candidate run ahead whose verdict fast-check never asked for, is judged by no one.
   */
  judged: number;
  shrinkJudged: number;
  /** Runs of a replayed case beside its batch. */
  replayRuns: number;
  /** Sub-cases whose end the live progress heard as it came, before their batch's verdict was taken. */
  toldEnded: WeakSet<object>;
  /** The longest case judged: what one shrink candidate is expected to cost. */
  longestCaseMs: number;
  /** The first failure: a sub-case of a generated batch (or, replaying, the case the path names). */
  firstFailure?: SubCaseRecord<T>;
  /** fast-check reports the last failing case it saw as the counterexample: its verdict. */
  lastFailure?: SubCaseRecord<T>;
  /** When shrinking must stop (performance.now()); set by the first failure. */
  shrinkEndsAt: number;
  /** Shrinking was ended by its budget: the counterexample is the smallest failing case found by then, not a minimal one. */
  shrinkStopped: boolean;
  /**
   * The rules a failure broke when they are only rules the scenarios already showed broken by outlasting the
   * deadline: every candidate and re-run would wait out the deadline to show it again, so it is reported as found.
   */
  notWorthShrinking?: readonly string[];
}

/** One property being checked: what every phase reads, and the state they share. */
export interface PropertyRun<T> {
  readonly spec: PropertySpec<T>;
  readonly context: PropertyContext;
  readonly settings: PropertySettings;
  readonly plan: PropertyPlan;
  readonly arbitrary: BatchArbitrary<T>;
  readonly verdicts: BatchVerdicts<T>;
  /** Aborts when the property's time limit is over or the run is stopped. */
  readonly limit: AbortSignal;
  /** Cases and load still in flight: the property ends only once they have. */
  readonly running: Set<Promise<unknown>>;
  /** performance.now() when the property started. */
  readonly startedAt: number;
  readonly state: RunState<T>;
  /** Stops the property's clock. */
  release(): void;
}

/** The parts of a run decided before it starts. */
export interface RunParts<T> {
  spec: PropertySpec<T>;
  context: PropertyContext;
  plan: PropertyPlan;
  arbitrary: BatchArbitrary<T>;
  verdicts: BatchVerdicts<T>;
}

/** Starts the property's clock: cases still running when its time limit strikes are stopped by `limit`. */
export function startPropertyRun<T>(parts: RunParts<T>): PropertyRun<T> {
  const { settings } = parts.context;
  // A timer of our own, not AbortSignal.timeout: a timeout signal held only through AbortSignal.any may be
  // collected before it fires, and the case in flight would then never hear of the limit.
  const clock = new AbortController();
  const timer = setTimeout(() => clock.abort(new Error('the property time limit is over')), settings.timeLimit.ms);
  const limit = AbortSignal.any([parts.context.signal, clock.signal]);
  // Every case of a batch waits on it at once (50 in certify): past Node's 10 listeners it would warn on stderr.
  setMaxListeners(0, limit);
  return {
    ...parts,
    settings,
    limit,
    running: new Set(),
    startedAt: performance.now(),
    state: { over: false, cutShort: false, batches: 0, judged: 0, shrinkJudged: 0, replayRuns: 0, toldEnded: new WeakSet(), longestCaseMs: 0, shrinkEndsAt: Number.POSITIVE_INFINITY, shrinkStopped: false },
    release: () => clearTimeout(timer),
  };
}

/** Keeps the first error of the kit and stops the property: shrinking a bug of the kit would blame the provisioner. */
export function stopForKitFault<T>(run: PropertyRun<T>, error: unknown): void {
  run.state.kitFault ??= error as Error;
  run.state.over = true;
}

/** No verdict may be taken any more: fast-check stopped, or the limit struck (which makes the property interrupted). */
export function verdictsClosed<T>(run: PropertyRun<T>): boolean {
  if (run.limit.aborted) run.state.cutShort = true;
  return run.state.over || run.limit.aborted;
}

/**
 * A verdict fast-check may still ask for, run early, before it asks: while shrinking, the candidates of a case
 * run ahead of its questions (run-ahead.ts) or in its order as its stream gives them (run-in-order.ts).
 */
export interface EarlyCandidates<T> {
  /**
   * The record of the candidate `batch` when it was, or is now, started early; undefined when it is run as any
   * batch. The record is undefined when the candidate never got its place (the limit struck, or shrinking's budget
   * ended); `ran` is false when its verdict is that of the same case met earlier.
   */
  verdictOf(batch: readonly T[]): Promise<EarlyVerdict<T>> | undefined;
}

export type EarlyVerdict<T> = { record: SubCaseRecord<T>; ran: boolean } | undefined;
