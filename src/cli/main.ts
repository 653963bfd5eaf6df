import yargs from 'yargs';
import { UsageError } from '../config/usage-error.js';
import { kitIdentity } from '../config/package-paths.js';
import type { CommandResult } from './command-result.js';
import { runCommand } from './run.js';
import { rulesCommand } from './rules.js';
import { serveCommand } from './serve.js';
import { verifyCommand } from './verify.js';
import { checkRegistrationCommand } from './check-registration.js';

const NAME = 'provisioner-conformance';

/** Runs the CLI and returns its exit code: 0 pass, 1 a MUST rule failed, 2 usage or kit error, 3 unreachable. */
export async function main(argv: string[]): Promise<number> {
  const result: CommandResult = { exitCode: 0 };
  const parser = yargs(argv)
    .scriptName(NAME)
    .command(runCommand(result, argv))
    .command(rulesCommand(result))
    .command(serveCommand(result))
    .command(verifyCommand(result))
    .command(checkRegistrationCommand(result))
    .demandCommand(1, 'name a command: run, rules, serve, verify or check-registration')
    .strict()
    .version(kitIdentity().version)
    .help()
    .wrap(Math.min(120, process.stdout.columns ?? 100))
    .fail((message, error) => {
      // yargs calls this for its own validation (message) and for errors thrown by handlers (error).
      if (error) throw error;
      throw new UsageError('usage', message.replace(/\s*\n\s*/g, ' ').trim());
    });
  try {
    await parser.parseAsync();
    return result.exitCode;
  } catch (error) {
    if (error instanceof UsageError || (error instanceof Error && error.name === 'YError')) {
      // Some of yargs' checks throw their own error instead of calling the fail handler.
      const text = error instanceof UsageError && error.flag === 'usage' ? error.message.slice('usage: '.length) : error.message;
      process.stderr.write(`${NAME}: ${text.replace(/\s*\n\s*/g, ' ')} (see ${NAME} --help)\n`);
      return 2;
    }
    process.stderr.write(`${NAME}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 2;
  }
}
