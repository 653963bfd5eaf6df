import type { JsonParse } from './json.js';
import type { Millis } from './time.js';

/** A change of a change set, as results are matched to it. */
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
  /**
   * The exchanges are a control plane's own, seen by `observe` or `verify --har`, not the kit's: reasons say
   * what the traffic had, never which of run's flags would have made it.
   */
  observed?: boolean;
}
