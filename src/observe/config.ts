import type { DurationSetting, RegistrationDocument } from '../core/judge-context.js';
import { parsePositiveDuration } from '../core/duration.js';
import { isValidPointer } from '../core/json-pointer.js';
import { loadRegistration } from '../config/registration.js';
import { chooseMaxOperationDuration, ruleIdsFlag, validateUrl } from '../config/run-config.js';
import { UsageError } from '../errors.js';
import type { RuleSelection } from '../rules/index.js';
import { observeFlagsFromFile, type ObserveConfigSources } from './config-file.js';

/** The report files an observation writes, as `run` writes them. */
export interface ObserveOutputs {
  report?: string;
  junit?: string;
  html?: string;
  transcript?: string;
  /** A folder for the evidence as a bundle (always masked), written at the end. */
  bundle?: string;
}

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
  outputs: ObserveOutputs;
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

export const DEFAULT_LISTEN = '127.0.0.1:0';
export const DEFAULT_REPORT_EVERY = 'PT1M';
const DEFAULT_BODY_LIMIT = 1024 * 1024;

function duration(flag: string, text: string): number {
  const parsed = parsePositiveDuration(text);
  if (!parsed.ok) throw new UsageError(flag, parsed.error);
  return parsed.ms;
}

/** `HOST:PORT`, `:PORT`, `PORT` or `[v6]:PORT`. */
export function parseListen(text: string): { host: string; port: number } {
  // The host and its colon come together: `8080` alone is a port, never host 808 and port 0.
  const match = /^(?:(?:\[([^\]]+)\]|([^:]*)):)?(\d+)$/.exec(text.trim());
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--listen', `"${text}" is not HOST:PORT (e.g. 127.0.0.1:8080, or port 0 for a free one)`);
  return { host: match[1] ?? (match[2] || '127.0.0.1'), port };
}

/** The rule ids of --only or --skip, checked as a run checks them; given but empty is no rule at all. */
function ruleIds(flag: string, values: string[] | undefined): string[] | undefined {
  return values === undefined ? undefined : (ruleIdsFlag(flag, values) ?? []);
}

/**
 * Resolves the options of an observation once, the flags over the config file; every problem is a UsageError
 * or ConfigError naming its flag. With `sources` a config file is also looked for in the working folder;
 * without, only the one `config` names is read.
 */
export async function resolveObserveConfig(given: ObserveFlags, sources?: ObserveConfigSources): Promise<ObserveConfig> {
  const fromFile = sources !== undefined || given.config !== undefined ? observeFlagsFromFile(given.config, sources ?? { env: process.env, cwd: process.cwd() }) : undefined;
  const flags = layerObserveFlags(given, fromFile?.flags as ObserveFlags | undefined);
  if (flags.upstream === undefined || flags.upstream.trim() === '') throw new UsageError('--upstream', 'missing: give the provisioner\'s base URL');
  validateUrl('--upstream', flags.upstream);
  const changesPointer = flags.changesPath ?? '/changes';
  if (!isValidPointer(changesPointer)) throw new UsageError('--changes-path', `"${changesPointer}" is not a JSON pointer (write e.g. /changes)`);
  const registration = flags.registration === undefined ? undefined : await loadRegistration(flags.registration);
  return {
    upstream: flags.upstream,
    listen: parseListen(flags.listen ?? DEFAULT_LISTEN),
    maxOperationDuration: chooseMaxOperationDuration(flags.maxOperationDuration, registration),
    ...(registration && { registration }),
    answerTimeoutMs: duration('--answer-timeout', flags.answerTimeout ?? 'PT10S'),
    pollIntervalMs: duration('--poll-interval', flags.pollInterval ?? 'PT10S'),
    selection: { strict: flags.strict ?? false, only: ruleIds('--only', flags.only), skip: ruleIds('--skip', flags.skip) },
    changesPointer,
    reportEveryMs: duration('--report-every', flags.reportEvery ?? DEFAULT_REPORT_EVERY),
    ...(flags.duration !== undefined && { durationMs: duration('--duration', flags.duration) }),
    outputs: {
      ...(flags.report !== undefined && { report: flags.report }),
      ...(flags.junit !== undefined && { junit: flags.junit }),
      ...(flags.html !== undefined && { html: flags.html }),
      ...(flags.transcript !== undefined && { transcript: flags.transcript }),
      ...(flags.bundle !== undefined && { bundle: flags.bundle }),
    },
    ...(flags.recordChangeSets !== undefined && { recordChangeSets: flags.recordChangeSets }),
    showSecrets: flags.showSecrets ?? false,
    secrets: flags.secret ?? [],
    bodyLimitBytes: DEFAULT_BODY_LIMIT,
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

