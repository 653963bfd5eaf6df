import type { Argv, CommandModule } from 'yargs';
import type { CommandResult } from './command-result.js';
import { RUN_HEAD } from './declarations/run.js';
import { withRunFlags, type RunArgs } from './run-flags.js';

export type { RunArgs } from './run-flags.js';

/**
 * The run command. Its flags are declared here and its work in ./execute-run.js, which loads when a run
 * starts: `run --help` loads what it lists, not the runner, the client or the reports.
 */
export function runCommand(result: CommandResult, argv: readonly string[] = []): CommandModule<object, RunArgs> {
  return {
    ...RUN_HEAD,
    builder: (yargs: Argv<object>) => withRunFlags(yargs, argv),
    handler: async (args) => {
      const { executeRun } = await import('./execute-run.js');
      result.exitCode = (await executeRun(args, { console: true })).exitCode;
    },
  };
}
