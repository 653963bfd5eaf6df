import yargs from 'yargs';
import { kitIdentity } from '../core/package.js';
import { exitCodeOf, InternalError, KitError, messageOf, UsageError } from '../errors.js';
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
      // yargs calls this with a message for its own validation, and with only the error for one thrown by a handler.
      if (message) throw new UsageError('usage', message.replace(/\s*\n\s*/g, ' ').trim());
      throw error;
    });
  try {
    await parser.parseAsync();
    return result.exitCode;
  } catch (error) {
    const kitError = error instanceof KitError ? error : new InternalError(messageOf(error), { cause: error });
    process.stderr.write(`${errorText(kitError)}\n`);
    return exitCodeOf(kitError.code);
  }
}

/** A kit error as the user sees it: one line with its code; a bug in the kit also shows where it happened. */
function errorText(error: KitError): string {
  const line = (text: string): string => text.replace(/\s*\n\s*/g, ' ');
  switch (error.code) {
    case 'KIT_USAGE':
    case 'KIT_CONFIG':
      return `${NAME}: ${line(error.message)} (see ${NAME} --help) [${error.code}]`;
    case 'KIT_INTERNAL': {
      const { version } = kitIdentity();
      const where = error.cause instanceof Error ? error.cause.stack : error.stack;
      return `${NAME}: internal error in version ${version}, a bug in the kit [${error.code}]: ${where ?? error.message}`;
    }
    default:
      return `${NAME}: ${line(error.message)} [${error.code}]`;
  }
}
