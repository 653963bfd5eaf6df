import type { KitErrorCode } from '../errors.js';
import { plural } from '../core/text.js';
import type { Exchange } from '../transcript/exchange.js';

/** Not thrown: an unreachable target is a verdict of its own (exit 3), and its sentences carry the code. */
const UNREACHABLE_CODE: KitErrorCode = 'KIT_TARGET_UNREACHABLE';

function neverAnswered(url: string, detail: string): string {
  return `the provisioner at ${url} never answered: ${detail}`;
}

/** Most kinds of error listed one by one; the rest are counted together. */
const ERRORS_LISTED = 3;

/** `POST /plan`, `GET /operations/{id}`: what a call was, without the ids it carried. */
function callShape(exchange: Exchange): string {
  let path = exchange.request.url;
  try {
    path = new URL(exchange.request.url).pathname;
  } catch {
    // Kept as sent: the URL is shown as it is.
  }
  return `${exchange.request.method} ${path.replace(/^(.*\/operations)\/.+$/, '$1/{id}')}`;
}

function errorText(exchange: Exchange): string {
  if (!exchange.error) return 'no answer';
  // "other" names no kind: the message alone says what happened.
  return exchange.error.kind === 'other' ? exchange.error.message : `${exchange.error.kind}: ${exchange.error.message}`;
}

/** A hint for the common causes, read from the errors: each cause once, in the order seen. */
export function unreachableHints(url: string, exchanges: readonly Exchange[]): string[] {
  const hints = new Set<string>();
  let host = url;
  try {
    host = new URL(url).hostname;
  } catch {
    // A URL that does not parse never got this far; the text as given is the best name for it.
  }
  for (const exchange of exchanges) {
    const error = exchange.error;
    if (!error) continue;
    if (/plain HTTP/.test(error.message)) hints.add('the port speaks plain HTTP: try http://');
    else if (error.kind === 'dns') hints.add(`the host name of ${host} does not resolve: check its spelling, or the DNS this machine uses`);
    else if (error.kind === 'refused') hints.add(`nothing listens at ${host}: is the provisioner running, on this host and port?`);
    else if (error.kind === 'reset') hints.add(`${host} closed every connection: a proxy or firewall in between, or a TLS port spoken to over http://`);
    else if (/\b(TLS|SSL)\b/.test(error.message)) hints.add('the TLS handshake failed: check the certificate, or whether the port speaks TLS at all');
  }
  return [...hints];
}

/**
 * The few sentences of a run whose target answered nothing: what was tried, what every attempt got, and a
 * hint for the common causes.
 */
export function unreachableSentences(url: string, exchanges: readonly Exchange[]): string[] {
  const tried = exchanges.filter((exchange) => exchange.error?.kind !== 'stopped');
  if (tried.length === 0) {
    return [`${neverAnswered(url, 'no request was sent')}; nothing was judged (${UNREACHABLE_CODE})`];
  }
  const shapes = [...new Set(tried.map(callShape))];
  const summary = neverAnswered(url, `${plural(tried.length, 'call')} (${shapes.join(', ')}) ended in a transport error`);
  const counts = new Map<string, number>();
  for (const exchange of tried) counts.set(errorText(exchange), (counts.get(errorText(exchange)) ?? 0) + 1);
  const kinds = [...counts].sort((a, b) => b[1] - a[1]);
  const listed = kinds.slice(0, ERRORS_LISTED).map(([text, count]) => (kinds.length === 1 ? text : `${text} (${count})`));
  const others = kinds.slice(ERRORS_LISTED).reduce((sum, [, count]) => sum + count, 0);
  const got = `${kinds.length === 1 ? 'every attempt got' : 'the attempts got'}: ${listed.join('; ')}${others > 0 ? `; ${plural(others, 'other error')}` : ''}`;
  // A hint the errors' own words already give is not said twice.
  const hints = unreachableHints(url, tried)
    .filter((hint) => !got.includes(hint))
    .map((hint) => `hint: ${hint}`);
  return [`${summary}; the run stopped there and nothing was judged (${UNREACHABLE_CODE})`, got, ...hints];
}
