import type { CommandModule } from 'yargs';
import type { CommandResult } from './command-result.js';
import { OBSERVE_DECLARATION, type ObserveArgs } from './declarations/observe.js';

/**
 * The observe command: resolves its flags into one configuration and observes until SIGINT, SIGTERM or
 * --duration. The proxy, the judges and the reports load only when it is dispatched.
 */
export function observeCommand(result: CommandResult): CommandModule<object, ObserveArgs> {
  return {
    ...OBSERVE_DECLARATION,
    handler: async (args) => {
      const [{ resolveObserveConfig }, { observeOnConsole }] = await Promise.all([import('../config/observe-config.js'), import('../kit/observe.js')]);
      const config = await resolveObserveConfig(args, { env: process.env, cwd: process.cwd() });
      result.exitCode = (await observeOnConsole(config, {})).exitCode;
    },
  };
}
