import type { Argv, CommandModule } from 'yargs';
import type { CommandHead, Declaration } from './declarations/declaration.js';

/**
 * A command whose module is imported only when yargs dispatches it: `--help`, `--version` and the other
 * commands then start without undici, fast-check, ajv or the reports. A declared builder stays eager, so
 * `COMMAND --help` lists the flags without loading the handler; without one, the module's builder loads.
 */
export function lazyCommand<A>(declaration: CommandHead | Declaration<A>, load: () => Promise<CommandModule<object, A>>): CommandModule<object, A> {
  let loaded: Promise<CommandModule<object, A>> | undefined;
  const command = (): Promise<CommandModule<object, A>> => (loaded ??= load());
  return {
    command: declaration.command,
    describe: declaration.describe,
    builder: 'builder' in declaration ? declaration.builder : async (yargs: Argv<object>) => builderOf(await command())(yargs),
    handler: async (args) => {
      await (await command()).handler(args);
    },
  };
}

function builderOf<A>(command: CommandModule<object, A>): (yargs: Argv<object>) => Argv<A> | PromiseLike<Argv<A>> {
  const { builder } = command;
  if (typeof builder !== 'function') throw new TypeError(`command ${String(command.command)} declares no builder function`);
  return builder;
}
