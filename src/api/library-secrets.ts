import { findConfigFile, readConfigValues } from '../config/config-file.js';
import type { RunOptions } from '../config/run-options.js';
import { SecretMask } from '../report/secret-mask.js';

export { maskedError } from '../report/masked-error.js';

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The mask of what a library caller gives the kit, known before any option is checked: every header (well
 * formed or not), the password of `url` and of $PROVISIONER_URL, and the same of the config file the run
 * reads. It masks the kit's error messages, which may quote any of them; `showSecrets` lifts it.
 */
export function librarySecrets(options: RunOptions, env: NodeJS.ProcessEnv, cwd: string): SecretMask {
  const file = typeof options.config === 'string' ? options.config : findConfigFile(cwd);
  const config = file === undefined ? undefined : readConfigValues(file, env);
  if ((options.showSecrets ?? config?.['show-secrets']) === true) return SecretMask.none();
  const mask = new SecretMask();
  const header = options.header;
  const lines = Array.isArray(header) ? strings(header) : typeof header === 'object' && header !== null ? Object.entries(header).map(([name, value]) => `${name}: ${String(value)}`) : [];
  for (const line of [...lines, ...strings(config?.['header'])]) mask.addHeaderLine(line);
  for (const url of [...strings(options.url), ...strings(config?.['url']), env.PROVISIONER_URL ?? '']) mask.addUrl(url);
  if (config) mask.learnJson(config);
  return mask;
}
