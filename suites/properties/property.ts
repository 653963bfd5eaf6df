import type { Arbitrary } from 'fast-check';
import type { ChangeSetInfo, JudgeContext } from '../../src/rules/types.js';
import type { SuiteContext } from '../suite.js';

/** Budgets and replay settings of the property-based suites, from the run command's flags. */
export interface PropertySettings {
  /** Cases per property. */
  maxExamples: number;
  /** Wall-clock budget of one property, generation and shrinking included; past it the property stops with what it has. */
  timeLimitMs: number;
  /** Replays one exact case when given with `path`. */
  seed?: number;
  path?: string;
  /** Generated change sets go to POST /apply only when this is set. */
  allowApplyGenerated: boolean;
}

/** What a property suite gets besides a scenario suite's context. */
export interface PropertyContext extends SuiteContext {
  settings: PropertySettings;
  /**
   * JSON pointer to the changes array in the run's change sets (`--changes-path`). The runner always gives it;
   * absent only where a test builds a context by hand, which means the default, `/changes`.
   */
  /** The run-wide judge context; a case adds its own generated change sets to a copy of it. */
  judgeContext: JudgeContext;
  /** Makes a generated change set known to the run-wide judgement (results are matched by change-set name). */
  registerChangeSet(info: ChangeSetInfo): void;
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

/** A property: an arbitrary of cases and how to run one case against the live provisioner. */
export interface PropertySpec<T> {
  /** Stable name, e.g. `property/generated-plans`: printed with the seed and path. */
  name: string;
  arbitrary: Arbitrary<T>;
  /**
   * Runs one case; `caseSuite` is the suite name to tag its exchanges with, unique per case. `signal` aborts
   * when the property's time limit is over (or the run is stopped): the case should stop sending then.
   */
  runCase(value: T, caseSuite: string, signal: AbortSignal): Promise<CaseVerdict>;
  /** The counterexample as a person reads it: the change set, or the command sequence with real ids. */
  describe(value: T): string;
}

/** The end of one property: held over every case, failed with a reproduced counterexample, or flaky. */
export interface PropertyResult {
  name: string;
  status: 'passed' | 'failed' | 'flaky';
  /** Cases run, shrinking included. */
  numRuns: number;
  seed: number;
  /** fast-check's path to the shrunk counterexample; `--seed S --path P` replays it. */
  path?: string;
  /** Whether the time limit cut generation or shrinking short. */
  interrupted: boolean;
  /** Rules the counterexample broke. */
  ruleIds: string[];
  counterexample?: string;
  /** The counterexample's exchanges (seqs), key one first. */
  exchanges: number[];
  notes: string[];
  /** Re-runs of the counterexample before reporting: did each one break the same rules? */
  reruns: Array<{ reproduced: boolean; exchanges: number[]; notes: string[] }>;
  /** One line for the console, e.g. how to replay. */
  message: string;
}

/** A property as the runner runs it: one fast-check property, checked once per run. */
export interface PropertySuite {
  /** Stable name, as `--property NAME` selects it. */
  name: string;
  /** Cases when `--max-examples` is not given: enough to find faults, few enough that a run against an instant provisioner takes seconds. */
  defaultMaxExamples: number;
  /** Whether its cases call POST /apply: such properties take turns, as the control plane never runs two applies for one application and environment at once. */
  applies(settings: PropertySettings): boolean;
  run(context: PropertyContext): Promise<PropertyResult>;
}
