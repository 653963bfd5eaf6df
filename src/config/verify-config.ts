import { stat } from 'node:fs/promises';
import type { RegistrationDocument } from '../core/judge-context.js';
import { UsageError } from '../errors.js';
import type { RuleSelection } from '../rules/index.js';
import { DEFAULTS } from './defaults.js';
import { changesPathField, defaultDuration, maxOperationDurationField, ruleSelectionField } from './fields.js';
import type { ObserveConfig } from './observe-config.js';
import { checkOutputPaths, type CommandOutputs } from './output-paths.js';
import { loadRegistration } from './registration.js';

/** The options of `verify`, as its flags (camelCase) or a library caller give them. */
export interface VerifyOptions {
  /** The transcript file (`run --transcript`, `observe --transcript`), or the folder of a bundle. */
  transcript?: string;
  /** A HAR 1.2 file of recorded traffic, judged as observe judges live traffic; instead of `transcript`. */
  har?: string;
  /** With `har`: the provisioner's registration document, judged and used for maxOperationDuration. */
  registration?: string;
  /** With `har`: deadline of an operation, ISO 8601 (default: the registration's, else the most any may hold). */
  maxOperationDuration?: string;
  /** With `har`: JSON pointer to the changes array in a change set. */
  changesPath?: string;
  report?: string;
  junit?: string;
  html?: string;
  /** With `har`: keep each distinct change set seen in this folder. */
  recordChangeSets?: string;
  strict?: boolean;
  only?: string[];
  skip?: string[];
  showSecrets?: boolean;
  /** More values to mask in what verify prints and writes. */
  secret?: string[];
}

/** How traffic recorded in a HAR file is judged: as an observation's, with the control plane's timing. */
export type HarJudgingConfig = Pick<ObserveConfig, 'maxOperationDuration' | 'registration' | 'answerTimeoutMs' | 'pollIntervalMs' | 'selection' | 'changesPointer' | 'showSecrets' | 'bodyLimitBytes'>;

/** What every form of verify shares: what it masks and what it writes. */
interface VerifyShared {
  showSecrets: boolean;
  secrets: string[];
  /** The reports asked for, their paths checked before anything is read. */
  outputs: Pick<CommandOutputs, 'report' | 'junit' | 'html'>;
}

/** `verify --har FILE`: recorded traffic, judged as observed traffic. */
export type HarConfig = VerifyShared & { kind: 'har'; file: string; judging: HarJudgingConfig; registration?: RegistrationDocument; recordChangeSets?: string };

/** A recording judged again: a transcript file, or a HAR file. */
export type RecordingConfig = (VerifyShared & { kind: 'transcript'; file: string; selection: RuleSelection }) | HarConfig;

/** Everything `verify` is told, decided once: which recording it judges (or which bundle it checks), and how. */
export type VerifyConfig = (VerifyShared & { kind: 'bundle'; dir: string }) | RecordingConfig;

/** Resolves verify's options into one configuration; every problem is a UsageError or ConfigError naming its flag. */
export async function resolveVerifyConfig(options: VerifyOptions): Promise<VerifyConfig> {
  if (options.har !== undefined) return resolveHarConfig({ ...options, har: options.har });
  if (options.transcript === undefined) throw new UsageError('usage', 'name the transcript file or bundle folder to verify, or give --har FILE');
  const shared = sharedConfig(options);
  const selection = ruleSelectionField(options);
  if (await isDirectory(options.transcript)) return { ...shared, kind: 'bundle', dir: options.transcript };
  return { ...shared, kind: 'transcript', file: options.transcript, selection };
}

/** Resolves `verify --har`'s options: the traffic's timing is the control plane's, as observe states it. */
export async function resolveHarConfig(options: VerifyOptions & { har: string }): Promise<HarConfig> {
  if (options.transcript !== undefined) throw new UsageError('--har', 'judges a HAR file instead of a transcript: give one or the other');
  const shared = sharedConfig(options);
  const selection = ruleSelectionField(options);
  const changesPointer = changesPathField(options.changesPath);
  // Files are read last: a mistyped flag is reported before a slow or missing file.
  const registration = options.registration === undefined ? undefined : await loadRegistration(options.registration);
  const judging: HarJudgingConfig = {
    maxOperationDuration: maxOperationDurationField(options.maxOperationDuration, registration),
    ...(registration && { registration }),
    answerTimeoutMs: defaultDuration('answerTimeout').ms,
    // A recording is the control plane's traffic: its reports state the control plane's poll interval.
    pollIntervalMs: defaultDuration('controlPlanePollInterval').ms,
    selection,
    changesPointer,
    showSecrets: shared.showSecrets,
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
  };
  return { ...shared, kind: 'har', file: options.har, judging, ...(registration && { registration }), ...(options.recordChangeSets !== undefined && { recordChangeSets: options.recordChangeSets }) };
}

/** What every form of verify resolves alike: the mask, and the reports' paths, checked before anything is read. */
function sharedConfig(options: VerifyOptions): VerifyShared {
  const outputs = checkOutputPaths({ report: options.report, junit: options.junit, html: options.html });
  return { showSecrets: options.showSecrets ?? DEFAULTS.showSecrets, secrets: options.secret ?? [], outputs };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
