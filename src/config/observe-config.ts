import type { DurationSetting, RegistrationDocument } from '../core/judge-context.js';
import type { RuleSelection } from '../rules/index.js';
import { DEFAULTS } from './defaults.js';
import { changesPathField, durationField, listenField, maxOperationDurationField, ruleSelectionField, urlField } from './fields.js';
import { observeFlagsFromFile, type ObserveConfigSources } from './observe-config-file.js';
import { checkOutputPaths, type CommandOutputs } from './output-paths.js';
import { loadRegistration } from './registration.js';
import { UsageError } from '../errors.js';

/** Everything an observation needs, resolved once: the CLI and the library both build this and call observe(). */
export interface ObserveConfig {
  /** The provisioner's base URL, where every request goes on to. */
  upstream: string;
  /** Where the observer listens; port 0 takes a free one. */
  listen: { host: string; port: number };
  maxOperationDuration: DurationSetting;
  registration?: RegistrationDocument;
  /** How fast plan and apply must answer (answer.prompt). */
  answerTimeoutMs: number;
  /** The control plane's poll interval, as the reports state it (the traffic's own timing is what is judged). */
  pollIntervalMs: number;
  selection: RuleSelection;
  changesPointer: string;
  /** The JSON report is written again this often. */
  reportEveryMs: number;
  /** Stop by itself after this long; absent: until stopped. */
  durationMs?: number;
  /** The files and the folder it writes, checked before it starts; the transcript is appended as the traffic flows, the bundle is written at the end. */
  outputs: CommandOutputs;
  /** Keep each distinct change set seen in this folder. */
  recordChangeSets?: string;
  showSecrets: boolean;
  /** More values to mask in every output (header values the control plane sends, say). */
  secrets: string[];
  /** Bytes of a body kept for judging; the traffic always passes whole. */
  bodyLimitBytes: number;
}

/** The options of an observation as a command line or a library caller gives them: names as the flags', values as text. */
export interface ObserveFlags {
  /** A config file (JSON or YAML) read under the flags: its keys shared with run, and its `observe` section. */
  config?: string;
  upstream?: string;
  listen?: string;
  registration?: string;
  maxOperationDuration?: string;
  answerTimeout?: string;
  pollInterval?: string;
  strict?: boolean;
  only?: string[];
  skip?: string[];
  changesPath?: string;
  reportEvery?: string;
  duration?: string;
  report?: string;
  junit?: string;
  html?: string;
  transcript?: string;
  bundle?: string;
  recordChangeSets?: string;
  showSecrets?: boolean;
  secret?: string[];
}

/**
 * Resolves the options of an observation once, the flags over the config file; every problem is a UsageError
 * or ConfigError naming its flag, an output path that cannot be written among them, before anything listens.
 * With `sources` a config file is also looked for in the working folder; without, only the one `config` names is read.
 */
export async function resolveObserveConfig(given: ObserveFlags, sources?: ObserveConfigSources): Promise<ObserveConfig> {
  const fromFile = sources !== undefined || given.config !== undefined ? observeFlagsFromFile(given.config, sources ?? { env: process.env, cwd: process.cwd() }) : undefined;
  const flags = layerObserveFlags(given, fromFile?.flags as ObserveFlags | undefined);
  if (flags.upstream === undefined || flags.upstream.trim() === '') throw new UsageError('--upstream', 'missing: give the provisioner\'s base URL');
  const upstream = urlField('--upstream', flags.upstream);
  const changesPointer = changesPathField(flags.changesPath);
  const settings = {
    listen: listenField(flags.listen ?? DEFAULTS.observeListen),
    answerTimeoutMs: durationField('--answer-timeout', flags.answerTimeout ?? DEFAULTS.answerTimeout).ms,
    pollIntervalMs: durationField('--poll-interval', flags.pollInterval ?? DEFAULTS.controlPlanePollInterval).ms,
    selection: ruleSelectionField(flags),
    reportEveryMs: durationField('--report-every', flags.reportEvery ?? DEFAULTS.observeReportEvery).ms,
    ...(flags.duration !== undefined && { durationMs: durationField('--duration', flags.duration).ms }),
    outputs: checkOutputPaths({ report: flags.report, junit: flags.junit, html: flags.html, transcript: flags.transcript, bundle: flags.bundle }),
  };
  // Files are read last: a mistyped flag is reported before a slow or missing file.
  const registration = flags.registration === undefined ? undefined : await loadRegistration(flags.registration);
  return {
    upstream,
    ...settings,
    maxOperationDuration: maxOperationDurationField(flags.maxOperationDuration, registration),
    ...(registration && { registration }),
    changesPointer,
    ...(flags.recordChangeSets !== undefined && { recordChangeSets: flags.recordChangeSets }),
    showSecrets: flags.showSecrets ?? DEFAULTS.showSecrets,
    secrets: flags.secret ?? [],
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
  };
}

/** The flags given, over the config file's; a flag left undefined does not hide the file's value. Lists of secrets add up. */
function layerObserveFlags(given: ObserveFlags, fromFile: ObserveFlags | undefined): ObserveFlags {
  if (!fromFile) return given;
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as ObserveFlags;
  const secrets = [...(fromFile.secret ?? []), ...(given.secret ?? [])];
  const layered: ObserveFlags = { ...fromFile, ...defined };
  if (secrets.length > 0) layered.secret = secrets;
  return layered;
}
