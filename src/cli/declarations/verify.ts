import type { Argv } from 'yargs';
import type { Declaration } from './declaration.js';
import { DEFAULTS } from '../../config/defaults.js';
import type { VerifyOptions } from '../../config/verify-config.js';

/** The verify command's flags are its options: one list, kept with its configuration. */
export type VerifyArgs = VerifyOptions;

export const VERIFY_DECLARATION: Declaration<VerifyArgs> = {
  command: 'verify [transcript]',
  describe: 'Judge a transcript written by run --transcript or observe --transcript again, offline, read as a stream; or check a bundle written by run --bundle (its hashes, and that its verdict follows from its transcript); or judge traffic recorded in a HAR file (--har)',
  builder: (yargs: Argv<object>) =>
    yargs
      .positional('transcript', { type: 'string', describe: 'The transcript file, or the folder of a bundle' })
      .option('har', { type: 'string', requiresArg: true, describe: 'Judge the traffic recorded in this HAR 1.2 file as observe judges live traffic (read as a stream)' })
      .option('registration', { type: 'string', requiresArg: true, describe: 'With --har: the provisioner\'s registration document, judged and used for maxOperationDuration' })
      .option('max-operation-duration', { type: 'string', requiresArg: true, describe: `With --har: deadline of an operation, ISO 8601 (default: the registration's, else ${DEFAULTS.maxOperationDuration})` })
      .option('changes-path', { type: 'string', requiresArg: true, default: DEFAULTS.changesPath, describe: 'With --har: JSON pointer to the changes array in a change set' })
      .option('report', { type: 'string', requiresArg: true, describe: 'Write the JSON report of the judgement to this file' })
      .option('junit', { type: 'string', requiresArg: true, describe: 'Write the results as JUnit XML to this file' })
      .option('html', { type: 'string', requiresArg: true, describe: 'Write the HTML report to this file' })
      .option('record-change-sets', { type: 'string', requiresArg: true, describe: 'With --har: keep each distinct change set seen in this folder' })
      .option('strict', { type: 'boolean', default: DEFAULTS.strict, describe: 'Fail on SHOULD rules that do not hold' })
      .option('only', { type: 'string', array: true, requiresArg: true, describe: 'Judge only these rule ids' })
      .option('skip', { type: 'string', array: true, requiresArg: true, describe: 'Do not judge these rule ids' })
      .option('secret', { type: 'string', array: true, requiresArg: true, describe: 'Also mask this value (6 characters or more) wherever it appears in what verify prints (repeatable)' })
      .option('show-secrets', { type: 'boolean', default: DEFAULTS.showSecrets, describe: 'Print the transcript\'s header values and secret-looking values unmasked' }) as unknown as Argv<VerifyArgs>,
};
