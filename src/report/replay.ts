import type { PropertyResult } from '../core/property-result.js';
import { placeholderVariable } from './curl.js';
import { isSecretHeader } from '../core/redact.js';
import { shellQuote, shellWord } from './shell-quote.js';

const PROGRAM = 'provisioner-conformance';
// Flags a replay sets itself, and the outputs of the run: a replay must not overwrite the report of the failure it repeats.
const DROPPED = new Set(['--seed', '--path', '--property', '--max-examples', '--report', '--junit', '--html', '--transcript', '--bundle', '--record-change-sets']);

/** The flags that replay a property: its name, its seed and, after a failure, the path to the shrunk case. */
export function replayArgs(result: PropertyResult): string[] {
  return ['--property', result.name, '--seed', String(result.seed), ...(result.path === undefined ? [] : ['--path', result.path])];
}

/**
 * The whole command that replays a property: the run's own arguments, less the ones the replay sets and the
 * outputs, then the replay flags. Without the run's arguments (a library call) the command says where they go with `…`. A
 * secret header's value is taken from a PROVISIONER_* variable, as in the curl commands, unless showSecrets.
 */
export function replayCommand(result: PropertyResult, invocation?: readonly string[], showSecrets = false): string {
  const kept = invocation === undefined ? ['run', '…'] : withoutDropped(invocation).map((arg, i, all) => shellArgument(arg, all[i - 1], showSecrets));
  return [PROGRAM, ...kept, ...replayArgs(result).map(shellWord)].join(' ');
}

function shellArgument(arg: string, previous: string | undefined, showSecrets: boolean): string {
  if (arg === '…') return arg;
  if (previous === '--header' && !showSecrets) return headerValue(arg) ?? shellWord(arg);
  if (arg.startsWith('--header=') && !showSecrets) {
    const value = headerValue(arg.slice('--header='.length));
    if (value !== undefined) return `--header=${value}`;
  }
  return shellWord(arg);
}

/** `"Authorization: $PROVISIONER_AUTHORIZATION"` for a secret header, undefined for any other. */
function headerValue(header: string): string | undefined {
  const name = header.split(':')[0]!.trim();
  if (!isSecretHeader(name)) return undefined;
  const variable = placeholderVariable(name.toLowerCase());
  return /^[A-Za-z0-9-]+$/.test(name) ? `"${name}: $${variable}"` : `${shellQuote(`${name}: `)}"$${variable}"`;
}

function withoutDropped(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.split('=')[0]!;
    if (!DROPPED.has(name)) {
      kept.push(arg);
      continue;
    }
    if (!arg.includes('=')) i++; // the flag's value is the next argument
  }
  return kept;
}
