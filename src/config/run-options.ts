import type { DurationSetting, RegistrationDocument } from '../core/judge-context.js';
import { RULE_IDS } from '../rules/index.js';
import { bundledChangeSetFiles, loadChangeSets, type LoadedChangeSet } from './change-sets.js';
import { parseMaxOperationDuration, parsePositiveDuration, PT30M_MS } from '../core/duration.js';
import { parseHeaders } from './headers.js';
import { isValidPointer } from '../core/json-pointer.js';
import { loadRegistration, registeredMaxOperationDuration } from './registration.js';
import { UsageError } from '../errors.js';
import { DEFAULT_BURST, DEFAULT_RESTART_TIMEOUT } from './run-defaults.js';

/** The run command's flags as yargs hands them over. */
export interface RunFlags {
  url?: string;
  changeSet?: string[];
  registration?: string;
  maxOperationDuration?: string;
  pollInterval: string;
  answerTimeout: string;
  header?: string[];
  changesPath: string;
  planOnly: boolean;
  strict: boolean;
  showSecrets: boolean;
  only?: string[];
  skip?: string[];
  /** Plan calls sent at once by the burst suite; 0 turns it off. */
  burst?: number;
  burstApply?: boolean;
  restartCommand?: string;
  restartTimeout?: string;
  /** The run-wide budget (--time-limit); absent: the run is bounded only by its operations' deadlines. */
  timeLimit?: string;
}

export interface ResolvedRunOptions {
  url?: string;
  headers: Record<string, string>;
  changeSets: LoadedChangeSet[];
  changesPointer: string;
  registration?: RegistrationDocument;
  maxOperationDuration: DurationSetting;
  pollIntervalMs: number;
  answerTimeoutMs: number;
  planOnly: boolean;
  strict: boolean;
  showSecrets: boolean;
  only?: string[];
  skip?: string[];
  /** Calls sent at once by the burst suite (--burst); absent or 0: no burst. */
  burst?: number;
  /** The burst applies too (--burst-apply). */
  burstApply?: boolean;
  /** Shell command that restarts the provisioner (--restart-command); absent: no restart. */
  restartCommand?: string;
  /** Longest the restart may take (--restart-timeout). */
  restartTimeoutMs?: number;
  /** The run-wide budget (--time-limit): past it every suite stops driving and the run is judged on what happened. */
  timeLimit?: TimeLimit;
}

/** A run-wide time budget as given and in milliseconds. */
export interface TimeLimit {
  ms: number;
  text: string;
}

// The defaults live apart so that the flags' help can show them without loading the rule catalog.
export { DEFAULT_BURST, DEFAULT_RESTART_TIMEOUT } from './run-defaults.js';
/** More calls at once than this is not a burst test but a flood: the kit refuses it. */
const MOST_BURST = 1000;

function durationFlag(flag: string, value: string): number {
  const parsed = parsePositiveDuration(value);
  if (!parsed.ok) throw new UsageError(flag, parsed.error);
  return parsed.ms;
}

/** Rule ids from repeated or comma-separated --only/--skip values; an unknown id is a usage error. */
export function ruleIdsFlag(flag: string, values: string[] | undefined): string[] | undefined {
  if (!values || values.length === 0) return undefined;
  const ids = values.flatMap((value) => value.split(',')).map((id) => id.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !RULE_IDS.includes(id));
  if (unknown.length > 0) throw new UsageError(flag, `unknown rule id ${unknown.join(', ')} (see the rules command)`);
  return ids;
}

export function validateUrl(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(flag, `"${value}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(flag, `"${value}" is not an http or https URL`);
  return value;
}

/** Turns flags into what a run needs, reading files; every problem is a UsageError or ConfigError naming its flag. */
export async function resolveRunOptions(flags: RunFlags): Promise<ResolvedRunOptions> {
  const pollIntervalMs = durationFlag('--poll-interval', flags.pollInterval);
  const answerTimeoutMs = durationFlag('--answer-timeout', flags.answerTimeout);
  if (!isValidPointer(flags.changesPath)) throw new UsageError('--changes-path', `"${flags.changesPath}" is not a JSON pointer (write e.g. /changes)`);
  const headers = parseHeaders(flags.header ?? []);
  const files = flags.changeSet && flags.changeSet.length > 0 ? flags.changeSet : await bundledChangeSetFiles();
  const changeSets = await loadChangeSets(files, flags.changesPath);
  const registration = flags.registration === undefined ? undefined : await loadRegistration(flags.registration);
  return {
    url: flags.url === undefined ? undefined : validateUrl('--url', flags.url),
    headers,
    changeSets,
    changesPointer: flags.changesPath,
    registration,
    maxOperationDuration: chooseMaxOperationDuration(flags.maxOperationDuration, registration),
    pollIntervalMs,
    answerTimeoutMs,
    planOnly: flags.planOnly,
    strict: flags.strict,
    showSecrets: flags.showSecrets,
    only: ruleIdsFlag('--only', flags.only),
    skip: ruleIdsFlag('--skip', flags.skip),
    burst: burstFlag(flags.burst),
    burstApply: flags.burstApply ?? false,
    restartCommand: restartCommandFlag(flags.restartCommand),
    restartTimeoutMs: durationFlag('--restart-timeout', flags.restartTimeout ?? DEFAULT_RESTART_TIMEOUT),
    ...(flags.timeLimit !== undefined && { timeLimit: { ms: durationFlag('--time-limit', flags.timeLimit), text: flags.timeLimit.trim() } }),
  };
}

function burstFlag(value: number | undefined): number {
  if (value === undefined) return DEFAULT_BURST;
  if (!Number.isInteger(value) || value < 0 || value > MOST_BURST) throw new UsageError('--burst', `"${value}" is not a whole number from 0 to ${MOST_BURST}`);
  return value;
}

function restartCommandFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError('--restart-command', 'is empty: give the shell command that restarts the provisioner');
  return value;
}

/** The flag wins; then a valid registered duration; else PT30M, the most any registration may hold. */
function chooseMaxOperationDuration(flag: string | undefined, registration: RegistrationDocument | undefined): DurationSetting {
  if (flag !== undefined) {
    const parsed = parseMaxOperationDuration(flag);
    if (!parsed.ok) throw new UsageError('--max-operation-duration', parsed.error);
    return { ms: parsed.ms, text: parsed.text, source: 'flag' };
  }
  if (registration) {
    const registered = parseMaxOperationDuration(registeredMaxOperationDuration(registration));
    if (registered.ok) return { ms: registered.ms, text: registered.text, source: 'registration' };
  }
  return { ms: PT30M_MS, text: 'PT30M', source: 'default' };
}
