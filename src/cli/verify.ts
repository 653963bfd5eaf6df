import type { CommandModule } from 'yargs';
import type { CommandResult } from './command-result.js';
import { VERIFY_DECLARATION, type VerifyArgs } from './declarations/verify.js';

/** The verify command: resolves its flags, judges the transcript or HAR file again (or checks the bundle) and prints what it found. */
export function verifyCommand(result: CommandResult): CommandModule<object, VerifyArgs> {
  return {
    ...VERIFY_DECLARATION,
    handler: async (args) => {
      const [{ resolveVerifyConfig }, { verify }] = await Promise.all([import('../config/verify-config.js'), import('../kit/verify.js')]);
      const config = await resolveVerifyConfig(args);
      result.exitCode = (await verify(config, { console: true, invocation: process.argv.slice(2) })).exitCode;
    },
  };
}
