import type { Argv } from 'yargs';

/** A command as `--help` lists it. */
export interface CommandHead {
  command: string;
  describe: string;
}

/**
 * What yargs needs to list a command and parse its flags, without its handler: a declaration imports
 * nothing heavier than yargs' types, so `--help` and the other commands never load what a handler needs.
 */
export interface Declaration<A> extends CommandHead {
  builder: (yargs: Argv<object>) => Argv<A>;
}
