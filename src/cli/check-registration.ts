import type { CommandModule } from 'yargs';
import type { CommandResult } from './command-result.js';
import { CHECK_REGISTRATION_DECLARATION, type CheckRegistrationArgs } from './declarations/check-registration.js';

/** The check-registration command: the library's check on the terminal, which prints how each registration rule judges the document. */
export function checkRegistrationCommand(result: CommandResult): CommandModule<object, CheckRegistrationArgs> {
  return {
    ...CHECK_REGISTRATION_DECLARATION,
    handler: async (args) => {
      const { checkRegistrationOnConsole } = await import('../api/check-registration.js');
      result.exitCode = await checkRegistrationOnConsole(args);
    },
  };
}
