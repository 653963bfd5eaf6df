import type { Exchange } from '../transcript/exchange.js';
import { numberedMask, redactBodyText, redactHeaders, redactJson, type Mask } from '../core/redact.js';

/**
 * A copy of the exchanges safe to write to disk: credential headers and secret-looking body values
 * hidden. Every body is redacted the same way, and each distinct secret gets its own placeholder, so rules
 * judging the copy again reach the same verdicts (a secret that changed between two applies still differs).
 */
export function redactExchanges(exchanges: readonly Exchange[], mask: Mask = numberedMask()): Exchange[] {
  return exchanges.map((exchange) => ({
    ...exchange,
    request: {
      ...exchange.request,
      headers: redactHeaders(exchange.request.headers),
      ...(exchange.request.body !== undefined && { body: redactBodyText(exchange.request.body, undefined, mask) }),
    },
    ...(exchange.response
      ? {
          response: {
            ...exchange.response,
            headers: redactHeaders(exchange.response.headers),
            body: redactBodyText(exchange.response.body, exchange.response.json, mask),
            json: exchange.response.json.ok ? { ok: true, value: redactJson(exchange.response.json.value, mask) } : exchange.response.json,
          },
        }
      : {}),
  }));
}
