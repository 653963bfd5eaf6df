import type { CommandModule } from 'yargs';
import type { CommandResult } from './command-result.js';
import { CHECK_REGISTRATION_DECLARATION, type CheckRegistrationArgs } from './declarations/check-registration.js';

/** The check-registration command: reads the document and prints how each registration rule judges it. */
export function checkRegistrationCommand(result: CommandResult): CommandModule<object, CheckRegistrationArgs> {
  return {
    ...CHECK_REGISTRATION_DECLARATION,
    handler: async (args) => {
      const [{ resolveCheckRegistrationConfig }, { checkRegistration }] = await Promise.all([import('../config/check-registration-config.js'), import('../kit/check-registration.js')]);
      const config = await resolveCheckRegistrationConfig(args);
      result.exitCode = checkRegistration(config, { console: true }).exitCode;
    },
  };
}
