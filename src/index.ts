/**
 * provisioner-conformance as a library: run the kit from code, observe real traffic, judge a saved transcript,
 * bundle or HAR file again, judge a registration document, serve the reference provisioner, and read the
 * catalog of rules. Everything here comes through `src/api`, the library's one layer.
 */
export { runConformance } from './api/run-conformance.js';
export type { Report, ReportRule, ReportEvidence, ReportExchange, ReportProperty, ReportSettings, RunOutcome } from './api/masked-report.js';
export type { ConformanceOptions } from './api/options.js';
export { startObserver, type Observer, type ObserverOptions } from './api/observe.js';
export type { ObservationProgress, ObserveEvent, RuleBreak, UpstreamChange, JudgedOperations, Observation, RuleCount, TrafficSeen } from './api/observe.js';
export { verifyTranscript, verifyBundle, verifyRecording, verifyHarFile, type BundleCheck, type BundleProblem } from './api/verify.js';
export type { VerifyOptions, VerifyRecordingOptions, VerifyHarOptions, RecordingVerdict } from './api/verify.js';
export { checkRegistration, type CheckRegistrationOptions, type RegistrationVerdict } from './api/check-registration.js';
export { startReferenceProvisioner, FAULTS, REFERENCE_MODES } from './api/reference.js';
export type { RunningReference, ReferenceOptions, ReferenceMode, FaultName } from './api/reference.js';
export { RULES, RULE_IDS } from './api/catalog.js';
export type { RuleSelection, Rule, RuleResult, RuleStatus, Level, Evidence, Verdict, ExitCode } from './api/catalog.js';
export { KitError, UsageError, ConfigError, InternalError, RestartFailedError, OutputError, EnvironmentError, type KitErrorCode } from './api/errors.js';
