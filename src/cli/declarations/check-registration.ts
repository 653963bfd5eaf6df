import type { Argv } from 'yargs';
import type { Declaration } from './declaration.js';
import type { CheckRegistrationOptions } from '../../config/check-registration-config.js';

/** The command's one argument is its options: the document to judge. */
export type CheckRegistrationArgs = CheckRegistrationOptions;

export const CHECK_REGISTRATION_DECLARATION: Declaration<CheckRegistrationArgs> = {
  command: 'check-registration <registration>',
  describe: 'Judge a registration document alone (registration.* rules), without calling a provisioner',
  builder: (yargs: Argv<object>) =>
    yargs.positional('registration', { type: 'string', describe: 'The registration document (JSON)' }) as unknown as Argv<CheckRegistrationArgs>,
};
