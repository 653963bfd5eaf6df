import type { JsonParse, Millis } from '../transcript/exchange.js';
import type { Transcript } from '../transcript/transcript.js';

export type Level = 'MUST' | 'SHOULD' | 'ADVICE';

/** A rule's status in a report. `warn` and `advice` are a broken SHOULD and ADVICE rule. */
export type RuleStatus = 'pass' | 'fail' | 'warn' | 'advice' | 'skip' | 'not-exercised';

export type RuleSection = 'answers' | 'final' | 'reads' | 'registration' | 'repeats' | 'load' | 'bad-input';

/** One piece of evidence: a sentence, and the exchanges (by seq) that show it. The first is the key one. */
export interface Evidence {
  note: string;
  exchanges: number[];
}

/** What a judge concludes. The level of the rule turns `broken` into fail, warn or advice. */
export type Judgement =
  | { outcome: 'held'; message: string; evidence?: Evidence[] }
  | { outcome: 'broken'; message: string; evidence: Evidence[]; count?: number }
  | { outcome: 'not-exercised'; message: string };

export interface ChangeKey {
  id: string;
  environment: string;
}

export interface ChangeSetInfo {
  /** Short name used in the transcript and reports (file name without extension). */
  name: string;
  file?: string;
  /** The changes found at the changes pointer, when they could be read. */
  changes?: ChangeKey[];
  /** Why the changes could not be read. */
  changesError?: string;
}

export interface DurationSetting {
  ms: number;
  /** As written, e.g. `PT5M`. */
  text: string;
  source: 'registration' | 'flag' | 'default';
}

export interface RegistrationDocument {
  file: string;
  json: JsonParse;
}

/** Everything a judge may know besides the transcript. No HTTP, no clock. */
export interface JudgeContext {
  changeSets: ChangeSetInfo[];
  answerTimeoutMs: number;
  pollIntervalMs: number;
  maxOperationDuration: DurationSetting;
  registration?: RegistrationDocument;
  /** The run only planned: no apply was sent on purpose. */
  planOnly: boolean;
  /** When the run started, for messages. */
  startedAt: Millis;
}

export interface Rule {
  id: string;
  level: Level;
  section: RuleSection;
  title: string;
  /** The rule in the kit's own words (RULES.md states the contract; this is what reports print). */
  sentence: string;
  /** Absent for rules the kit cannot judge yet: they are reported not-exercised. */
  judge?: (transcript: Transcript, context: JudgeContext) => Judgement;
}

export interface RuleResult {
  id: string;
  level: Level;
  title: string;
  sentence: string;
  status: RuleStatus;
  message: string;
  evidence: Evidence[];
  count?: number;
}
