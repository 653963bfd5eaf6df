import yargs from 'yargs';
import { kitIdentity } from '../core/package.js';
import { ConfigError, EnvironmentError, environmentCause, exitCodeOf, InternalError, KitError, messageOf, UsageError } from '../errors.js';
import type { CommandResult } from './command-result.js';
import { lazyCommand } from './lazy-command.js';
import { yargsRefusal, type YargsUsage } from './yargs-refusal.js';
import { RUN_HEAD } from './declarations/run.js';
import { RULES_DECLARATION } from './declarations/rules.js';
import { SERVE_DECLARATION } from './declarations/serve.js';
import { VERIFY_DECLARATION } from './declarations/verify.js';
import { CHECK_REGISTRATION_DECLARATION } from './declarations/check-registration.js';
import { OBSERVE_DECLARATION } from './declarations/observe.js';

const NAME = 'provisioner-conformance';

/** Runs the CLI and returns its exit code: 0 pass, 1 a MUST rule failed, 2 usage or kit error, 3 unreachable. */
export async function main(argv: string[]): Promise<number> {
  const result: CommandResult = { exitCode: 0 };
  const parser = yargs(argv)
    .scriptName(NAME)
    // Each command's module loads when yargs dispatches it: start-up is paid per command.
    .command(lazyCommand(RUN_HEAD, async () => (await import('./run.js')).runCommand(result)))
    .command(lazyCommand(RULES_DECLARATION, async () => (await import('./rules.js')).rulesCommand(result)))
    .command(lazyCommand(SERVE_DECLARATION, async () => (await import('./serve.js')).serveCommand(result)))
    .command(lazyCommand(VERIFY_DECLARATION, async () => (await import('./verify.js')).verifyCommand(result)))
    .command(lazyCommand(CHECK_REGISTRATION_DECLARATION, async () => (await import('./check-registration.js')).checkRegistrationCommand(result)))
    .command(lazyCommand(OBSERVE_DECLARATION, async () => (await import('./observe.js')).observeCommand(result)))
    .demandCommand(1, 'name a command: run, observe, rules, serve, verify or check-registration')
    .strict()
    .version(kitIdentity().version)
    .help()
    .wrap(Math.min(120, process.stdout.columns ?? 100))
    .fail((message, error, usage) => {
      // yargs calls this with a message for its own validation, and with only the error for one thrown by a handler.
      if (message) throw yargsRefusal(message, argv, usage as unknown as YargsUsage);
      throw error;
    });
  try {
    await parser.parseAsync();
    return result.exitCode;
  } catch (error) {
    const kitError = error instanceof KitError ? error : isYargsError(error) ? yargsRefusal(error.message, argv) : unexpected(error);
    // A message may quote a header, a config value, a restart command's output or a provisioner's text:
    // it leaves the kit through the same mask as everything else. The mask loads only when it is needed.
    const { invocationSecrets, maskedErrorText } = await import('./invocation-secrets.js');
    process.stderr.write(`${maskedErrorText(errorText(kitError), invocationSecrets(argv, process.env, process.cwd()))}\n`);
    return exitCodeOf(kitError.code);
  }
}

/** An error no part of the kit expected: the machine's refusal (a full disk, a permission) is not a bug in the kit; anything else is. */
function unexpected(error: unknown): KitError {
  const cause = environmentCause(error);
  if (cause !== undefined) {
    const { path, syscall } = error as NodeJS.ErrnoException;
    return new EnvironmentError(`cannot ${syscall ?? 'go on'}${path !== undefined ? ` ${path}` : ''}: ${cause}`, { cause: error });
  }
  return new InternalError(messageOf(error), { cause: error });
}

/**
 * yargs' own parse errors ("Not enough arguments following: …"): after a command's builder loaded lazily,
 * yargs rejects with them instead of calling `fail`, and they are the user's, as `fail` would have said.
 */
function isYargsError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'YError';
}

/** A kit error as the user sees it: one line with its code; a bug in the kit also shows where it happened. */
function errorText(error: KitError): string {
  const line = (text: string): string => text.replace(/\s*\n\s*/g, ' ');
  switch (error.code) {
    case 'KIT_USAGE':
    case 'KIT_CONFIG': {
      const text = line(error.message);
      return `${NAME}: ${text}${hasOwnHint(error, text) ? '' : ` (see ${NAME} --help)`} [${error.code}]`;
    }
    case 'KIT_INTERNAL': {
      const { version } = kitIdentity();
      const where = error.cause instanceof Error ? error.cause.stack : error.stack;
      return `${NAME}: internal error in version ${version}, a bug in the kit [${error.code}]: ${where ?? error.message}`;
    }
    default:
      return `${NAME}: ${line(error.message)} [${error.code}]`;
  }
}

/** Advice a message may already end with, from a check that words its own: `(write e.g. PT10S)`, `(see --list-faults)`. */
const ADVICE_AT_THE_END = /\((?:see|write|known:|did you mean) [^()]*\)$/;

/** One hint per error: the error's own, or the advice its words end with, leaves no room for a second pointing to the help. */
function hasOwnHint(error: KitError, text: string): boolean {
  const hint = error instanceof UsageError || error instanceof ConfigError ? error.hint : undefined;
  return hint !== undefined || ADVICE_AT_THE_END.test(text);
}
