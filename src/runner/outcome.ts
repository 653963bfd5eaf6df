import type { Millis } from '../transcript/exchange.js';
import type { ProfileName } from '../config/profiles.js';
import type { Transcript } from '../transcript/transcript.js';
import type { JudgeContext, RuleResult } from '../rules/types.js';
import type { PropertyResult } from '../../suites/properties/property.js';

/** pass: no MUST rule failed; fail: one did; unreachable: the target never answered; error: the kit itself failed. */
/** incomplete: a certify run in which a rule was not exercised, so nothing can be certified about it. */
export type Verdict = 'pass' | 'fail' | 'incomplete' | 'unreachable' | 'error';

export type ExitCode = 0 | 1 | 2 | 3;

export interface Summary {
  passed: number;
  failed: number;
  warned: number;
  advice: number;
  skipped: number;
  notExercised: number;
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
  context: JudgeContext;
  transcript: Transcript;
}

export interface OperationConclusion {
  operationId: string;
  changeSet?: string;
  kind: 'plan' | 'apply';
  reason: 'final' | 'lost' | 'deadline' | 'aborted';
  conclusion: string;
}

export interface RunSettings {
  /** The profile the run's defaults came from, and the config file it read, if any. */
  profile?: ProfileName;
  configFile?: string;
  pollIntervalMs: number;
  answerTimeoutMs: number;
  maxOperationDuration: JudgeContext['maxOperationDuration'];
  changesPointer: string;
  planOnly: boolean;
  strict: boolean;
  showSecrets: boolean;
  changeSets: string[];
}
