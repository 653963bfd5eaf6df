import type { Argv, CommandModule } from 'yargs';
import type { CommandResult } from './command-result.js';
import { RUN_HEAD } from './declarations/run.js';
import { givenOptions, withRunFlags, type RunArgs } from './run-flags.js';

export type { RunArgs } from './run-flags.js';

/**
 * The run command. Its flags are declared here; its work (the library's run on the terminal) loads when a run
 * starts: `run --help` loads what it lists, not the runner, the client or the reports.
 */
export function runCommand(result: CommandResult): CommandModule<object, RunArgs> {
  return {
    ...RUN_HEAD,
    builder: (yargs: Argv<object>) => withRunFlags(yargs),
    handler: async (args) => {
      const { runOnConsole } = await import('../api/run-conformance.js');
      result.exitCode = await runOnConsole(givenOptions(args), { env: process.env, cwd: process.cwd(), invocation: process.argv.slice(2) });
    },
  };
}
