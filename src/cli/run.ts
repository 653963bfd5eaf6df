import type { Argv, CommandModule } from 'yargs';
import type { CommandResult } from './command-result.js';
import { RUN_HEAD } from './declarations/run.js';
import { givenOptions, withRunFlags, type RunArgs } from './run-flags.js';
import type { RunOptions } from '../config/run-options.js';
import type { FaultNeedsApplied } from '../config/reference-fault-needs.js';

export type { RunArgs } from './run-flags.js';

/**
 * The run command. Its flags are declared here; its work (resolve the configuration, then run) loads when a
 * run starts: `run --help` loads what it lists, not the runner, the client or the reports.
 */
export function runCommand(result: CommandResult): CommandModule<object, RunArgs> {
  return {
    ...RUN_HEAD,
    builder: (yargs: Argv<object>) => withRunFlags(yargs),
    handler: async (args) => {
      const [{ resolveRunConfig }, { run }] = await Promise.all([import('../config/run-config.js'), import('../kit/run.js')]);
      const { options, line } = await withFaultNeeds(givenOptions(args));
      const config = await resolveRunConfig({ options, env: process.env, cwd: process.cwd() });
      if (line !== undefined) process.stderr.write(`${line}\n`);
      result.exitCode = (await run(config, { console: true, invocation: process.argv.slice(2) })).exitCode;
    },
  };
}

/** What `--reference-fault` needs, filled in; the reference's faults load only for a run that names one. */
async function withFaultNeeds(given: RunOptions): Promise<FaultNeedsApplied> {
  if (given.referenceFault === undefined) return { options: given };
  const { applyFaultNeeds } = await import('../config/reference-fault-needs.js');
  return applyFaultNeeds(given);
}
