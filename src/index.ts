/**
 * provisioner-conformance as a library: run the kit from code, observe real traffic, judge a saved transcript or bundle again,
 * serve the reference provisioner, and read the catalog of rules.
 */
export { runConformance, type Report } from './api/run-conformance.js';
// The JSON report's parts, as `runConformance` resolves to them and `--report` writes them: `report.rules` is a `ReportRule[]`.
export type {
  JsonRule as ReportRule,
  JsonEvidence as ReportEvidence,
  JsonExchange as ReportExchange,
  JsonProperty as ReportProperty,
  JsonSettings as ReportSettings,
} from './report/json-report.js';
export type { ConformanceOptions } from './api/options.js';
export { startObserver, type Observer, type ObserverOptions } from './api/observe.js';
export type { ObservationProgress, ObserveEvent } from './observe/observation-news.js';
export type { RuleBreak } from './observe/rule-breaks.js';
export type { UpstreamChange } from './observe/upstream-watch.js';
export type { JudgedOperations } from './observe/judged-progress.js';
export type { Observation, RuleCount, TrafficSeen } from './core/observation.js';
export { verifyTranscriptFile as verifyTranscript } from './observe/verify-transcript.js';
export { verifyBundle, type BundleCheck, type BundleProblem } from './runner/verify-bundle.js';
export type { RuleSelection } from './rules/index.js';
export type { RunOutcome } from './runner/outcome.js';
export { startReferenceProvisioner, FAULTS, REFERENCE_MODES } from './reference/index.js';
export type { RunningReference, ReferenceOptions, ReferenceMode, FaultName } from './reference/index.js';
export { RULES, RULE_IDS } from './rules/index.js';
// What a rule's judge returns inside the kit (evidence as exchange numbers); a report's rule is a `ReportRule`.
export type { Rule, RuleResult, RuleStatus, Level, Evidence } from './rules/types.js';
export type { Verdict, ExitCode } from './core/verdict.js';
export { KitError, UsageError, ConfigError, InternalError, RestartFailedError, OutputError, EnvironmentError, type KitErrorCode } from './errors.js';
