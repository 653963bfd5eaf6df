import type { JudgeContext } from '../core/judge-context.js';
import type { OperationConclusion } from '../core/operation-conclusion.js';
import type { PropertyResult } from '../core/property-result.js';
import type { Millis } from '../core/time.js';
import type { ExitCode, Verdict } from '../core/verdict.js';
import type { RuleResult } from '../rules/types.js';
import type { Transcript } from '../transcript/transcript.js';
import type { ProfileName } from '../config/profiles.js';
import type { Duration } from '../core/duration.js';
import type { Waiver } from '../config/baseline.js';
import type { Observation } from '../core/observation.js';

export interface Summary {
  passed: number;
  failed: number;
  warned: number;
  advice: number;
  skipped: number;
  notExercised: number;
  /** Rules about a way of answering the provisioner never chose; present only when there are any. */
  notApplicable?: number;
  /** Rules the kit failed to judge (a bug in the kit); present only when there are any. */
  errors?: number;
  /** Failures a baseline waived; only present when there are some. */
  waived?: number;
}

/** Everything a finished run knows; reports are views of this. */
export interface RunOutcome {
  kit: { name: string; version: string };
  target: { url: string };
  startedAt: Millis;
  finishedAt: Millis;
  verdict: Verdict;
  exitCode: ExitCode;
  summary: Summary;
  rules: RuleResult[];
  /** Plain sentences about the run as a whole, e.g. that no 202 was ever answered. */
  conclusions: string[];
  /** What the control plane would have concluded for each accepted operation. */
  operations: OperationConclusion[];
  /** What each property suite found: held, or a shrunk counterexample with its seed and path. */
  properties: PropertyResult[];
  settings: RunSettings;
  /** The run-wide budget (--time-limit), when there was one. */
  budget?: BudgetOutcome;
  /** For observed traffic (`observe`, `verify --har`): what the traffic held, and how often each rule was exercised. */
  observation?: Observation;
  context: JudgeContext;
  transcript: Transcript;
}

/** How a run used its --time-limit, and what lacks cases when it ran out. */
export interface BudgetOutcome {
  limit: Duration;
  spentMs: number;
  /** The limit passed before the run ended: driving was stopped there. */
  exhausted: boolean;
  /** Each property's cases: judged, asked for, and whether a time limit cut it short. */
  properties: Array<{ name: string; casesJudged: number; casesAsked: number; interrupted: boolean }>;
  /** With a spent budget: the rules that got no case. */
  notExercised: string[];
}

export interface RunSettings {
  /** The profile the run's defaults came from, and the config file it read, if any. */
  profile?: ProfileName;
  configFile?: string;
  /** The baseline the run applied: its file and waivers, so that judging the run again applies them too. */
  baseline?: { file: string; waivers: Waiver[] };
  pollInterval: Duration;
  answerTimeout: Duration;
  maxOperationDuration: JudgeContext['maxOperationDuration'];
  changesPointer: string;
  planOnly: boolean;
  strict: boolean;
  showSecrets: boolean;
  changeSets: string[];
}
