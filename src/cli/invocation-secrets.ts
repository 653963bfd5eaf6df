import { findConfigFile, readConfigValues } from '../config/config-file.js';
import { SecretMask } from '../report/secret-mask.js';

/**
 * The values of `--name` in argv as yargs reads an array flag: every word after `--name` up to the next
 * flag, and each `--name=value`. Read from the words themselves, so that a command line yargs refuses, or
 * a value it refuses, is still known.
 */
function flagValues(argv: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === `--${name}`) {
      for (let j = i + 1; j < argv.length && !argv[j]!.startsWith('--'); j += 1) values.push(argv[j]!);
    } else if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
  }
  return values;
}

/** `--show-secrets` as yargs reads a boolean flag, the last one winning; undefined when it is not given. */
function showSecretsFlag(argv: readonly string[]): boolean | undefined {
  let shown: boolean | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') break;
    const flag = /^--(no-)?(?:show-secrets|showSecrets)(?:=(.*))?$/.exec(arg);
    if (!flag) continue;
    const next = argv[i + 1];
    const value = flag[2] !== undefined ? flag[2] !== 'false' : next === 'true' || next === 'false' ? next === 'true' : true;
    shown = flag[1] === undefined ? value : !value;
  }
  return shown;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The mask of what a command line gives the kit, known before any flag is checked: every `--header` (well
 * formed or not) and `--secret` value, the password of `--url` and of $PROVISIONER_URL, and the same of the
 * config file a run reads (its `header` list, its `url`, values under secret-looking keys). It masks the
 * kit's own error messages, which may quote any of them; `--show-secrets`, on the command line or in the
 * config file, lifts it.
 */
export function invocationSecrets(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): SecretMask {
  const file = flagValues(argv, 'config').at(-1) ?? findConfigFile(cwd);
  const config = file === undefined ? undefined : readConfigValues(file, env);
  if (showSecretsFlag(argv) ?? config?.['show-secrets'] === true) return SecretMask.none();
  const mask = new SecretMask();
  for (const line of [...flagValues(argv, 'header'), ...strings(config?.['header'])]) mask.addHeaderLine(line);
  for (const secret of flagValues(argv, 'secret')) mask.add(secret);
  for (const url of [...flagValues(argv, 'url'), ...strings(config?.['url']), env.PROVISIONER_URL ?? '']) mask.addUrl(url);
  if (config) mask.learnJson(config);
  return mask;
}

export { maskedError, maskedErrorText } from '../report/masked-error.js';
