import { Parser } from 'yargs/helpers';
import { givenSecrets, stringsOf } from '../report/given-secrets.js';
import type { SecretMask } from '../report/secret-mask.js';

/** The flags whose values may be secret, as yargs reads them, from any command line, one yargs would refuse too. */
function secretFlags(argv: readonly string[]): { header: string[]; secret: string[]; url: string[]; config: string[]; showSecrets?: boolean } {
  const words = [...argv];
  const lists = Parser(words, { array: ['header', 'secret', 'url', 'config'], string: ['header', 'secret', 'url', 'config'], configuration: { 'camel-case-expansion': false } });
  // A boolean given more than once: the last one wins, as for yargs' own parse of the command.
  const flags = Parser(words, { boolean: ['show-secrets', 'showSecrets'], configuration: { 'duplicate-arguments-array': false, 'camel-case-expansion': false } });
  const shown = (flags['show-secrets'] ?? flags['showSecrets']) as boolean | undefined;
  const list = (name: string): string[] => stringsOf(lists[name]);
  return { header: list('header'), secret: list('secret'), url: list('url'), config: list('config'), ...(shown !== undefined && { showSecrets: shown }) };
}

/**
 * The mask of what a command line gives the kit, known before any flag is checked: every `--header` (well
 * formed or not) and `--secret` value, the password of `--url` and of $PROVISIONER_URL, and the same of the
 * config file a run reads (its `header` list, its `url`, values under secret-looking keys). It masks the
 * kit's own error messages, which may quote any of them; `--show-secrets`, on the command line or in the
 * config file, lifts it.
 */
export function invocationSecrets(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): SecretMask {
  const flags = secretFlags(argv);
  return givenSecrets({ headerLines: flags.header, secrets: flags.secret, urls: flags.url, configFile: flags.config.at(-1), showSecrets: flags.showSecrets }, env, cwd);
}

export { maskedError, maskedErrorText } from '../report/masked-error.js';
