import { findConfigFile, loadConfigFile } from './config-file.js';
import { camelOf } from './run-options.js';

/** Keys of a config file that mean the same to observe as to run, by long option name. */
const SHARED_KEYS = [
  'registration',
  'max-operation-duration',
  'poll-interval',
  'answer-timeout',
  'changes-path',
  'strict',
  'only',
  'skip',
  'report',
  'junit',
  'html',
  'bundle',
  'transcript',
  'show-secrets',
] as const;

/** Where observe's config file comes from: the flag, else the working folder. */
export interface ObserveConfigSources {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** A file's value for a flag: whole numbers become text, as a flag's value is. */
function flagValue(value: unknown): unknown {
  return typeof value === 'number' ? String(value) : value;
}

/** The values of a config file's `header` entries ("Name: value"): secrets observe masks in what it writes. */
function headerValues(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((line) => {
    if (typeof line !== 'string') return [];
    const text = line.slice(line.indexOf(':') + 1).trim();
    return text === '' ? [] : [text];
  });
}

/**
 * The observe flags a config file gives (`--config FILE`, else one in the working folder): its keys that mean
 * the same as run's, then its `observe` section, which wins over them, by the observe flags' names. Header
 * values become secrets to mask. Undefined when there is no config file.
 */
export function observeFlagsFromFile(file: string | undefined, sources: ObserveConfigSources): { file: string; flags: Record<string, unknown> } | undefined {
  const found = file ?? findConfigFile(sources.cwd);
  if (found === undefined) return undefined;
  const { values } = loadConfigFile(found, sources.env);
  const flags: Record<string, unknown> = {};
  for (const key of SHARED_KEYS) if (values[key] !== undefined) flags[camelOf(key)] = flagValue(values[key]);
  const section = (values.observe ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(section)) if (key !== 'header') flags[camelOf(key)] = flagValue(value);
  const secrets = [...headerValues(values.header), ...headerValues(section.header), ...((flags.secret as string[] | undefined) ?? [])];
  if (secrets.length > 0) flags.secret = secrets;
  else delete flags.secret;
  return { file: found, flags };
}
