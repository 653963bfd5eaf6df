import type { CommandModule } from 'yargs';
import type { CommandResult } from './command-result.js';
import { VERIFY_DECLARATION, type VerifyArgs } from './declarations/verify.js';

/** The verify command: the library's verify on the terminal, which judges the transcript or HAR file again (or checks the bundle) and prints what it found. */
export function verifyCommand(result: CommandResult): CommandModule<object, VerifyArgs> {
  return {
    ...VERIFY_DECLARATION,
    handler: async (args) => {
      const { verifyOnConsole } = await import('../api/verify.js');
      result.exitCode = await verifyOnConsole(args, { invocation: process.argv.slice(2) });
    },
  };
}
