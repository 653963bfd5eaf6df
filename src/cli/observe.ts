import type { CommandModule } from 'yargs';
import type { CommandResult } from './command-result.js';
import { OBSERVE_DECLARATION, type ObserveArgs } from './declarations/observe.js';

/**
 * The observe command: the library's observation on the terminal, until SIGINT, SIGTERM or --duration. The
 * proxy, the judges and the reports load only when it is dispatched.
 */
export function observeCommand(result: CommandResult): CommandModule<object, ObserveArgs> {
  return {
    ...OBSERVE_DECLARATION,
    handler: async (args) => {
      const { observeOnConsole } = await import('../api/observe.js');
      result.exitCode = await observeOnConsole(args, { env: process.env, cwd: process.cwd() });
    },
  };
}
