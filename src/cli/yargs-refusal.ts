import { closestName } from '../core/closest-name.js';
import { UsageError } from '../errors.js';

/**
 * What yargs hands `fail` as its third argument: the help of the command it got to, whose flags and
 * subcommands are the names a typo is compared with.
 */
export interface YargsUsage {
  getDescriptions(): Record<string, unknown>;
  getCommands(): ReadonlyArray<readonly unknown[]>;
}

/** For a refusal yargs rejects with instead of calling `fail`: no known names to suggest from. */
const NO_USAGE: YargsUsage = { getDescriptions: () => ({}), getCommands: () => [] };

/**
 * A command line yargs refused, in the kit's words: one line naming the flag, quoting the user's value and,
 * for a typo, the closest known name; yargs' own message, on one line, for what the kit has no words for.
 */
export function yargsRefusal(message: string, argv: readonly string[], usage: YargsUsage = NO_USAGE): UsageError {
  return unknownArgumentError(message, argv, usage) ?? invalidChoiceError(message) ?? missingValueError(message) ?? new UsageError('usage', oneLine(message));
}

/**
 * yargs' "Unknown arguments: poll-intervall, pollIntervall" as the flag or command as written, quoted, with the
 * closest known one. yargs also lists an unknown flag camel-cased; that one was never typed.
 */
function unknownArgumentError(message: string, argv: readonly string[], usage: YargsUsage): UsageError | undefined {
  const listed = /^Unknown arguments?: (.+)$/.exec(message.trim())?.[1];
  if (listed === undefined) return undefined;
  const names = listed.split(', ');
  const flags = names.flatMap((name) => {
    const written = writtenFlag(name, argv);
    return written === undefined ? [] : [written];
  });
  if (flags.length > 1) return new UsageError('usage', `unknown flags ${flags.map(quoted).join(', ')}`);
  if (flags.length === 1) {
    const known = Object.keys(usage.getDescriptions()).map((key) => `--${key}`);
    return new UsageError('usage', `unknown flag ${quoted(flags[0]!)}`, suggestion(flags[0]!, known));
  }
  const word = names[0]!;
  const commands = usage.getCommands().map((command) => String(command[0]).split(' ')[0]!);
  if (commands.length > 0 && argv.find((arg) => !arg.startsWith('-')) === word) {
    return new UsageError('usage', `unknown command ${quoted(word)}`, suggestion(word, commands) ?? `the commands: ${commands.join(', ')}`);
  }
  return new UsageError('usage', `unexpected argument ${quoted(word)}`);
}

/** yargs' "Invalid values: Argument: mode, Given: "sometimes", Choices: "sync", …" as `--mode: "sometimes" is not one of sync, …`. */
function invalidChoiceError(message: string): UsageError | undefined {
  const found = /Argument: ([^,]+), Given: (.+?), Choices: (.+)$/m.exec(message);
  if (!found) return undefined;
  const [, name, given, listed] = found as unknown as [string, string, string, string];
  const choices = listed.split(', ').map(unquoted);
  return new UsageError(`--${name}`, `${given} is not one of ${choices.join(', ')}`, suggestion(unquoted(given), choices));
}

/** yargs' "Not enough arguments following: poll-interval" as `--poll-interval: needs a value`. */
function missingValueError(message: string): UsageError | undefined {
  const name = /^Not enough arguments following: (\S+)$/.exec(message.trim())?.[1];
  return name === undefined ? undefined : new UsageError(`--${name}`, 'needs a value');
}

/** The flag as the user wrote it (`--poll-intervall`, `-x`), or undefined when the name is no flag of argv. */
function writtenFlag(name: string, argv: readonly string[]): string | undefined {
  const forms = [`--${name}`, `-${name}`, `--no-${name}`];
  return forms.find((form) => argv.some((arg) => arg === form || arg.startsWith(`${form}=`)));
}

function suggestion(given: string, known: readonly string[]): string | undefined {
  const closest = closestName(given, known);
  return closest === undefined ? undefined : `did you mean ${closest}?`;
}

function quoted(text: string): string {
  return `"${text}"`;
}

function unquoted(text: string): string {
  return text.replace(/^"(.*)"$/, '$1');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
