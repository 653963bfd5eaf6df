import type { Duration } from '../core/duration.js';
import { parseMaxOperationDuration, parsePositiveDuration } from '../core/duration.js';
import type { DurationSetting, RegistrationDocument } from '../core/judge-context.js';
import { isValidPointer } from '../core/json-pointer.js';
import { didYouMean } from '../core/closest-name.js';
import { UsageError } from '../errors.js';
import { RULE_IDS, type RuleSelection } from '../rules/index.js';
import { DEFAULTS } from './defaults.js';
import { registeredMaxOperationDuration } from './registration.js';

/**
 * The parsers of the values several commands share: each checks one value and names its flag in every
 * problem, so `run`, `observe`, `verify` and `serve` refuse the same mistake in the same words.
 */

/** A positive ISO 8601 duration (`PT10S`). */
export function durationField(flag: string, value: unknown): Duration {
  const parsed = parsePositiveDuration(value);
  if (!parsed.ok) throw new UsageError(flag, parsed.error);
  return { text: parsed.text, ms: parsed.ms };
}

/** The flag wins; then a valid registered duration; else the default, the most any registration may hold. */
export function maxOperationDurationField(value: string | undefined, registration: RegistrationDocument | undefined): DurationSetting {
  if (value !== undefined) {
    const parsed = parseMaxOperationDuration(value);
    if (!parsed.ok) throw new UsageError('--max-operation-duration', parsed.error);
    return { ms: parsed.ms, text: parsed.text, source: 'flag' };
  }
  if (registration) {
    const registered = parseMaxOperationDuration(registeredMaxOperationDuration(registration));
    if (registered.ok) return { ms: registered.ms, text: registered.text, source: 'registration' };
  }
  return { ...defaultDuration('maxOperationDuration'), source: 'default' };
}

/** The names of the defaults table's durations. */
type DurationDefault = { [K in keyof typeof DEFAULTS]: (typeof DEFAULTS)[K] extends `P${string}` ? K : never }[keyof typeof DEFAULTS];

/** A duration of the defaults table, for a command that has no flag for it (verify --har's timing is the control plane's). */
export function defaultDuration(name: DurationDefault): Duration {
  const parsed = parsePositiveDuration(DEFAULTS[name]);
  // The table is the kit's own: a default that does not parse is a bug in the kit, not the user's to fix.
  if (!parsed.ok) throw new Error(`the default ${name} ${DEFAULTS[name]} does not parse: ${parsed.error}`);
  return { text: parsed.text, ms: parsed.ms };
}

/** An absolute http or https URL. */
export function urlField(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(flag, `"${value}" is not an absolute URL`, schemeHint(value));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(flag, `"${value}" is not an http or https URL`, schemeHint(value));
  return value;
}

/** `host:port` without a scheme (which `new URL` refuses, or reads `localhost:` as one): the URL it likely meant. */
function schemeHint(value: string): string | undefined {
  if (value.includes('://')) return undefined;
  const meant = `http://${value}`;
  return URL.canParse(meant) ? `did you mean ${meant}?` : undefined;
}

/** Rule ids from repeated or comma-separated --only/--skip values; none given is undefined; an unknown id is a usage error. */
export function ruleIdsField(flag: string, values: readonly string[] | undefined): string[] | undefined {
  if (!values || values.length === 0) return undefined;
  const ids = values.flatMap((value) => value.split(',')).map((id) => id.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !RULE_IDS.includes(id));
  if (unknown.length === 1) throw new UsageError(flag, `unknown rule id "${unknown[0]!}"`, didYouMean(unknown[0]!, RULE_IDS, 'see the rules command'));
  if (unknown.length > 1) throw new UsageError(flag, `unknown rule ids ${unknown.map((id) => `"${id}"`).join(', ')}`, 'see the rules command');
  return ids;
}

/** `--strict`, `--only` and `--skip` as the rules a judgement applies. */
export function ruleSelectionField(flags: { strict?: boolean | undefined; only?: readonly string[] | undefined; skip?: readonly string[] | undefined }): RuleSelection {
  return { strict: flags.strict ?? DEFAULTS.strict, only: ruleIdsField('--only', flags.only), skip: ruleIdsField('--skip', flags.skip) };
}

/** `--changes-path`: a JSON pointer to the changes array in a change set; absent, the default. */
export function changesPathField(value: string | undefined): string {
  const pointer = value ?? DEFAULTS.changesPath;
  if (!isValidPointer(pointer)) throw new UsageError('--changes-path', `"${pointer}" is not a JSON pointer (write e.g. ${DEFAULTS.changesPath})`);
  return pointer;
}

/** `HOST:PORT`, `:PORT`, `PORT` or `[v6]:PORT`. */
export function listenField(text: string): { host: string; port: number } {
  // The host and its colon come together: `8080` alone is a port, never host 808 and port 0.
  const match = /^(?:(?:\[([^\]]+)\]|([^:]*)):)?(\d+)$/.exec(text.trim());
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--listen', `"${text}" is not HOST:PORT (e.g. 127.0.0.1:8080, or port 0 for a free one)`);
  return { host: match[1] ?? (match[2] || DEFAULTS.serveHost), port };
}

/** A whole number given as a number (library, YAML) or as the text of a flag, quoted as it was given when it is none. */
export function wholeNumberField(flag: string, value: unknown, min: number, max: number, what = `a whole number from ${min} to ${max}`): number {
  const text = String(value).trim();
  const number = typeof value === 'number' ? value : /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) throw new UsageError(flag, `"${String(value)}" is not ${what}`);
  return number;
}

/** A TCP port, 0 to 65535 (0: a free one). */
export function portField(flag: string, value: number | string): number {
  return wholeNumberField(flag, value, 0, 65535, 'a port number (0 to 65535)');
}
