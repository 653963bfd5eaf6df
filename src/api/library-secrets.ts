import type { RunOptions } from '../config/run-options.js';
import { givenSecrets, stringsOf } from '../report/given-secrets.js';
import type { SecretMask } from '../report/secret-mask.js';

export { maskedError } from '../report/masked-error.js';

/**
 * The mask of what a library caller gives a run, known before any option is checked: every header (well
 * formed or not), the password of `url` and of $PROVISIONER_URL, and the same of the config file the run
 * reads. It masks the kit's error messages, which may quote any of them; `showSecrets` lifts it.
 */
export function librarySecrets(options: RunOptions, env: NodeJS.ProcessEnv, cwd: string): SecretMask {
  const header = options.header;
  const headerLines = Array.isArray(header) ? stringsOf(header) : typeof header === 'object' && header !== null ? Object.entries(header).map(([name, value]) => `${name}: ${String(value)}`) : [];
  const configFile = typeof options.config === 'string' ? options.config : undefined;
  return givenSecrets({ headerLines, secrets: [], urls: stringsOf(options.url), configFile, showSecrets: options.showSecrets }, env, cwd);
}
