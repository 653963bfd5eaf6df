import type { Argv, CommandModule } from 'yargs';
import { ruleIdsFlag } from '../config/run-options.js';
import { ConfigError, KitError, messageOf } from '../errors.js';
import { verifyTranscript } from '../runner/verify.js';
import { renderSummary } from '../report/console.js';
import { shouldUseColor } from '../report/style.js';
import type { CommandResult } from './command-result.js';

interface VerifyArgs {
  transcript: string;
  strict: boolean;
  only?: string[];
  skip?: string[];
}

export function verifyCommand(result: CommandResult): CommandModule<object, VerifyArgs> {
  return {
    command: 'verify <transcript>',
    describe: 'Judge a transcript written by run --transcript again, offline',
    builder: (yargs: Argv<object>) =>
      yargs
        .positional('transcript', { type: 'string', describe: 'The transcript file' })
        .option('strict', { type: 'boolean', default: false, describe: 'Fail on SHOULD rules that do not hold' })
        .option('only', { type: 'string', array: true, requiresArg: true, describe: 'Judge only these rule ids' })
        .option('skip', { type: 'string', array: true, requiresArg: true, describe: 'Do not judge these rule ids' }) as unknown as Argv<VerifyArgs>,
    handler: async (args) => {
      let outcome;
      try {
        outcome = await verifyTranscript(args.transcript, { strict: args.strict, only: ruleIdsFlag('--only', args.only), skip: ruleIdsFlag('--skip', args.skip) });
      } catch (error) {
        if (error instanceof KitError) throw error;
        throw new ConfigError('transcript', `cannot read ${args.transcript}: ${(error as NodeJS.ErrnoException).code ?? messageOf(error)}`);
      }
      process.stdout.write(renderSummary(outcome, { color: shouldUseColor(process.stdout, process.env) }));
      result.exitCode = outcome.exitCode;
    },
  };
}
