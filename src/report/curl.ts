import type { Exchange } from '../transcript/exchange.js';
import { isSecretHeader, redactBodyText } from '../core/redact.js';
import { shellQuote, shellWord } from './shell-quote.js';

// Above this a body is referred to by file: a command line that long is neither readable nor pasteable.
const INLINE_BODY_BYTES = 4096;

// curl sets these itself; repeating them would only add noise or conflict with what curl sends.
const CURL_SETS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding', 'user-agent', 'expect']);

function displayName(header: string): string {
  return header.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** The environment variable a secret header's value is taken from, e.g. PROVISIONER_AUTHORIZATION. */
export function placeholderVariable(header: string): string {
  return `PROVISIONER_${header.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

function headerArgument(name: string, value: string, showSecrets: boolean): string {
  const shown = displayName(name);
  if (showSecrets || !isSecretHeader(name)) return `-H ${shellQuote(`${shown}: ${value}`)}`;
  const variable = placeholderVariable(name);
  // Double quotes let the shell put the variable's value in; only plain names are safe inside them.
  return /^[A-Za-z0-9-]+$/.test(shown) ? `-H "${shown}: $${variable}"` : `-H ${shellQuote(`${shown}: `)}"$${variable}"`;
}

/**
 * The change set's file, when the body is one; probes send generated bodies that no file holds, and so do
 * property cases, whose change sets are named after the case (`property/generated-plans#3`).
 */
function changeSetFile(exchange: Exchange): string | undefined {
  const name = exchange.changeSet;
  const isChangeSet = (exchange.tag === 'plan' || exchange.tag === 'apply') && name !== undefined && !name.includes('#');
  return isChangeSet ? `${name}.json` : undefined;
}

function bodyArguments(exchange: Exchange, showSecrets: boolean): string[] {
  const body = exchange.request.body ?? '';
  const shown = showSecrets ? body : redactBodyText(body);
  const hidesSecrets = shown !== body;
  const tooLong = Buffer.byteLength(body) > INLINE_BODY_BYTES;
  // A NUL byte cannot be passed in an argument at all.
  const unsayable = body.includes('\u0000');
  const file = changeSetFile(exchange);
  if (file !== undefined && (tooLong || unsayable || hidesSecrets)) return ['--data-binary', shellWord(`@${file}`)];
  if (tooLong || unsayable) return ['--data-binary', shellWord('@request-body.json')];
  // --data-binary would read a body that starts with @ as a file name; --data-raw sends it as it is.
  const option = shown.startsWith('@') ? '--data-raw' : '--data-binary';
  const args = [option, shellQuote(shown)];
  if (hidesSecrets) args.push('# secrets in the body are redacted; --show-secrets prints them');
  return args;
}

/** A curl command that repeats the exchange's request; secret headers come from PROVISIONER_* variables unless showSecrets. */
export function curlFor(exchange: Exchange, showSecrets: boolean): string {
  const { request } = exchange;
  const parts = ['curl', '-sS', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    if (CURL_SETS.has(name.toLowerCase())) continue;
    parts.push(headerArgument(name.toLowerCase(), value, showSecrets));
  }
  if (request.method !== 'GET') parts.push(...bodyArguments(exchange, showSecrets));
  return parts.join(' ');
}
