import { findConfigFile, readConfigValues } from '../config/config-file.js';
import { SecretMask } from './secret-mask.js';

/** What a command line or a library caller gave that may be secret, before any of it is checked. */
export interface GivenSecrets {
  /** `"Name: value"` lines, well formed or not. */
  headerLines: readonly string[];
  /** Values named secret (`--secret`). */
  secrets: readonly string[];
  /** URLs whose password is secret. */
  urls: readonly string[];
  /** The config file named; else the one in the working folder is read. */
  configFile?: string | undefined;
  showSecrets?: unknown;
}

/**
 * The mask of what the kit was given, known before any option is checked: every header line and secret, the
 * password of each URL and of $PROVISIONER_URL, and the same of the config file it reads (its `header` list,
 * its `url`, values under secret-looking keys). It masks the kit's error messages, which may quote any of
 * them; `showSecrets`, given or in the config file, lifts it.
 */
export function givenSecrets(given: GivenSecrets, env: NodeJS.ProcessEnv, cwd: string): SecretMask {
  const file = given.configFile ?? findConfigFile(cwd);
  const config = file === undefined ? undefined : readConfigValues(file, env);
  if ((given.showSecrets ?? config?.['show-secrets']) === true) return SecretMask.none();
  const mask = new SecretMask();
  for (const line of [...given.headerLines, ...stringsOf(config?.['header'])]) mask.addHeaderLine(line);
  for (const secret of given.secrets) mask.add(secret);
  for (const url of [...given.urls, ...stringsOf(config?.['url']), env.PROVISIONER_URL ?? '']) mask.addUrl(url);
  if (config) mask.learnJson(config);
  return mask;
}

/** The strings of a value that may be one string, a list, or anything else a caller or a file gave. */
export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
