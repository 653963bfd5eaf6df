import type { Argv } from 'yargs';
import type { Declaration } from './declaration.js';

export interface VerifyArgs {
  transcript: string;
  strict: boolean;
  only?: string[];
  skip?: string[];
  showSecrets: boolean;
  secret?: string[];
}

export const VERIFY_DECLARATION: Declaration<VerifyArgs> = {
  command: 'verify <transcript>',
  describe: 'Judge a transcript written by run --transcript again, offline; or check a bundle written by run --bundle (its hashes, and that its verdict follows from its transcript)',
  builder: (yargs: Argv<object>) =>
    yargs
      .positional('transcript', { type: 'string', describe: 'The transcript file, or the folder of a bundle' })
      .option('strict', { type: 'boolean', default: false, describe: 'Fail on SHOULD rules that do not hold' })
      .option('only', { type: 'string', array: true, requiresArg: true, describe: 'Judge only these rule ids' })
      .option('skip', { type: 'string', array: true, requiresArg: true, describe: 'Do not judge these rule ids' })
      .option('secret', { type: 'string', array: true, requiresArg: true, describe: 'Also mask this value (6 characters or more) wherever it appears in what verify prints (repeatable)' })
      .option('show-secrets', { type: 'boolean', default: false, describe: 'Print the transcript\'s header values and secret-looking values unmasked' }) as unknown as Argv<VerifyArgs>,
};
