import type { Arbitrary } from 'fast-check';
import type { ChangeSetInfo, JudgeContext } from '../../src/core/judge-context.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import type { PropertyTimeLimit } from '../../src/core/property-time-limit.js';
import type { SuiteContext } from '../suite.js';
import type { ShrinkBudget } from './shrink-budget.js';

/** Budgets and replay settings of the property-based suites, from the run command's flags. */
export interface PropertySettings {
  /** Cases per property. */
  maxExamples: number;
  /**
   * Wall-clock budget of one property, generation and shrinking included, and where it came from (the run's time
   * budget): past it the property stops with what it has, and says which limit stopped it.
   */
  timeLimit: PropertyTimeLimit;
  /** Replays one exact case when given with `path`. */
  seed?: number;
  path?: string;
  /** Generated change sets go to POST /apply only when this is set. */
  allowApplyGenerated: boolean;
  /** What shrinking a failure may spend; absent: three operation-lengths, at least two minutes. */
  shrinkBudget?: ShrinkBudget;
  /**
   * Rules only a wait past the operation deadline can break that the run's scenarios already showed broken: a
   * failure that broke only these is reported as found, without shrinking or re-runs, each of which would wait
   * out the whole deadline again. Asked when a failure is found; undefined while the scenarios still run (then
   * nothing is known yet, and the failure is shrunk as any other).
   */
  deadlineRulesFailed?: () => ReadonlySet<string> | undefined;
  /**
   * Resolves once `deadlineRulesFailed` knows (the scenarios have ended): a first failure that broke only rules
   * the deadline shows waits for it rather than shrink what the scenarios may show anyway.
   */
  deadlineRulesKnown?: Promise<unknown>;
}

/** What a property suite gets besides a scenario suite's context. */
export interface PropertyContext extends SuiteContext {
  settings: PropertySettings;
  /** The run-wide judge context; a case adds its own generated change sets to a copy of it. */
  judgeContext: JudgeContext;
  /** Makes a generated change set known to the run-wide judgement (results are matched by change-set name). */
  registerChangeSet(info: ChangeSetInfo): void;
  /**
   * Resolves once this property may send POST /apply: the scenarios' applies are done, and so are those of the
   * properties before it. A property that `appliesAlongside` awaits it before each apply; absent: at once.
   */
  appliesMayStart?: Promise<unknown>;
}

/** What one case of a property concluded: the rules its own exchanges broke. */
export interface CaseVerdict {
  /** Rule ids broken by this case (empty: the case held). */
  broken: string[];
  /** Seqs of the case's exchanges, the key one first. */
  exchanges: number[];
  /** One sentence per violation, naming real ids and values. */
  notes: string[];
}

/**
 * A property: an arbitrary of cases and how to run one case against the live provisioner. fast-check's cases
 * are batches of `batchSize` such cases (sub-cases), run at the same time.
 */
export interface PropertySpec<T> {
  /** Stable name, e.g. `property/generated-plans`: printed with the seed and path. */
  name: string;
  arbitrary: Arbitrary<T>;
  /**
   * Most sub-cases run at the same time (default 1: one after another). It must not depend on the number of
   * cases asked for: a replay line does not carry it, and the batches must be generated as they were.
   */
  batchSize?: number;
  /**
   * When given, the batch grows with the cases asked for (certify's 50 in one batch), up to this many sub-cases at
   * once; the replay path then records the size (see batch-size.ts).
   */
  batchLimit?: number;
  /** The arbitrary of each place in a batch of `size`, when places differ (e.g. which may apply under which lock); default `arbitrary` for every place. */
  slots?(size: number): Array<Arbitrary<T>>;
  /**
   * Shrink candidates of a failing case from place `slot` of a batch of `size` that may run at the same time
   * (default 1: one after another). More than one only where two such cases cannot interfere, e.g. never for cases
   * that apply.
   */
  shrinkWidth?(slot: number, size: number): number;
  /**
   * Whether a case's shrink candidates follow from its value alone, as they do for plain data: then candidates of a
   * candidate still running may run ahead too, several levels at once. Not for fast-check's commands, which shrink
   * by the commands that ran: their candidates run ahead only on the level fast-check is at, in its order. Default false.
   */
  candidatesFromValue?: boolean;
  /**
   * What a case sends, as a key two cases share only when they send the same: a shrink candidate the same as one
   * judged already takes its verdict rather than run again (and counts as no candidate tried). Absent: every
   * candidate runs.
   */
  caseKey?(value: T): string;
  /**
   * Shrink candidates that may run at once when cases are slow (shrink-budget.ts), in place of `shrinkWidth`'s for
   * places wider than one; absent: `shrinkWidth`'s always.
   */
  slowShrinkWidth?: number;
  /**
   * Runs one case; `caseSuite` is the suite name to tag its exchanges with, unique per case. `signal` aborts
   * when the property's time limit is over (or the run is stopped): the case should stop sending then.
   */
  runCase(value: T, caseSuite: string, signal: AbortSignal): Promise<CaseVerdict>;
  /**
   * Runs a case only as load: what it sends puts on the provisioner what it did in its batch, but it never applies
   * (so it holds no lock), it ends when `signal` aborts, and no verdict is taken from it. When given, a sub-case run
   * apart from its batch (a shrink candidate, a re-run, a replay) runs with the batch's other sub-cases beside it as
   * load, so that a failure that needs the batch's concurrency is shrunk and replayed under it (see batch-load.ts).
   */
  runAsLoad?(value: T, caseSuite: string, signal: AbortSignal): Promise<void>;
  /** The counterexample as a person reads it: the change set, or the command sequence with real ids. */
  describe(value: T): string;
}

/**
 * Shrink candidates that run at once where cases cannot interfere: a level of shrinking then costs about one
 * operation length per sixteen candidates tried, and a provisioner gets fewer calls at once than a batch sends.
 */
export const SHRINK_WIDTH = 16;

/** A property as the runner runs it: one fast-check property, checked once per run. */
export interface PropertySuite {
  /** Stable name, as `--property NAME` selects it. */
  name: string;
  /** Cases when `--max-examples` is not given: enough to find faults, few enough that a run against an instant provisioner takes seconds. */
  defaultMaxExamples: number;
  /**
   * Whether its cases call POST /apply: such properties wait until the scenarios' applies are done and take
   * turns, as the control plane never runs two applies for one application and environment at once.
   */
  applies(settings: PropertySettings, planOnly: boolean): boolean;
  /**
   * A property that applies only in some of its cases, each awaiting `appliesMayStart` before it applies: it
   * starts with the properties that only plan, and the others still take their turn after it.
   */
  appliesAlongside?: boolean;
  run(context: PropertyContext): Promise<PropertyResult>;
}
