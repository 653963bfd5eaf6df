import type { Exchange, RecordedResponse } from '../transcript/exchange.js';
import { numberedMask, redactBodyText, redactHeaders, redactJson, type Mask } from '../core/redact.js';

type RedactedBody = Pick<RecordedResponse, 'body' | 'json'>;

/**
 * A copy of the exchanges safe to write to disk: credential headers and secret-looking body values
 * hidden. Every body is redacted the same way, and each distinct secret gets its own placeholder, so rules
 * judging the copy again reach the same verdicts (a secret that changed between two applies still differs).
 * A body the client stored once for many answers (a poll answered the same thousands of times) is redacted
 * once and its copy shared: a copy for each exchange held a long run's bodies many times over.
 */
export function redactExchanges(exchanges: readonly Exchange[], mask: Mask = numberedMask()): Exchange[] {
  return [...redactedEach(exchanges, mask)];
}

/** The same copies as {@link redactExchanges}, made one at a time as they are asked for: a writer holds one. */
export function* redactedEach(exchanges: Iterable<Exchange>, mask: Mask = numberedMask()): Generator<Exchange> {
  // Keyed by the parsed value the store shares with the body, checked against the body's text.
  const bodies = new WeakMap<object, { from: string; redacted: RedactedBody }>();
  const redactedBody = (response: RecordedResponse): RedactedBody => {
    const known = bodies.get(response.json);
    if (known && known.from === response.body) return known.redacted;
    const redacted: RedactedBody = {
      body: redactBodyText(response.body, response.json, mask),
      json: response.json.ok ? { ok: true, value: redactJson(response.json.value, mask) } : response.json,
    };
    bodies.set(response.json, { from: response.body, redacted });
    return redacted;
  };
  // Headers objects are shared the same way (every poll of an operation sends the same ones): redacted once each.
  const headers = new WeakMap<Record<string, string>, Record<string, string>>();
  const redactedHeaders = (original: Record<string, string>): Record<string, string> => {
    let redacted = headers.get(original);
    if (redacted === undefined) headers.set(original, (redacted = redactHeaders(original)));
    return redacted;
  };
  for (const exchange of exchanges) {
    yield {
      ...exchange,
      request: {
        ...exchange.request,
        headers: redactedHeaders(exchange.request.headers),
        ...(exchange.request.body !== undefined && { body: redactBodyText(exchange.request.body, undefined, mask) }),
      },
      ...(exchange.response
        ? { response: { ...exchange.response, headers: redactedHeaders(exchange.response.headers), ...redactedBody(exchange.response) } }
        : {}),
    };
  }
}
