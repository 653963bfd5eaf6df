import { findConfigFile, loadConfigFile, type LoadedConfig } from './config-file.js';
import { DEFAULT_PROFILE, isProfileName, PROFILE_NAMES, PROFILES, type Profile } from './profiles.js';
import { UsageError } from '../errors.js';

/** What sits under the command-line flags of a run: the config file over the profile over the built-in defaults. */
export interface RunLayers {
  profile: Profile;
  config?: LoadedConfig;
}

/** The value of `--name VALUE` or `--name=VALUE` in argv, read before yargs parses it (it decides yargs' defaults). */
function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === `--${name}`) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name}`, 'needs a value');
      return next;
    }
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

/** Finds the config file (given, or found in `cwd`) and the profile (flag, else the file's, else ci). */
export function resolveRunLayers(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): RunLayers {
  const given = flagValue(argv, 'config');
  const file = given ?? findConfigFile(cwd);
  const config = file === undefined ? undefined : loadConfigFile(file, env);
  const profileName = flagValue(argv, 'profile') ?? (config?.values['profile'] as string | undefined) ?? DEFAULT_PROFILE;
  if (!isProfileName(profileName)) throw new UsageError('--profile', `unknown profile "${profileName}" (known: ${PROFILE_NAMES.join(', ')})`);
  return { profile: PROFILES[profileName], ...(config && { config }) };
}
