import type { Exchange } from '../transcript/exchange.js';
import { redactBodyText, redactHeaders, redactJson } from './redact.js';

/**
 * A copy of the exchanges safe to write to disk: credential headers and secret-looking body values
 * hidden. Every body is redacted the same way, so rules judging the copy again reach the same verdicts.
 */
export function redactExchanges(exchanges: readonly Exchange[]): Exchange[] {
  return exchanges.map((exchange) => ({
    ...exchange,
    request: { ...exchange.request, headers: redactHeaders(exchange.request.headers) },
    ...(exchange.response
      ? {
          response: {
            ...exchange.response,
            headers: redactHeaders(exchange.response.headers),
            body: redactBodyText(exchange.response.body, exchange.response.json),
            json: exchange.response.json.ok ? { ok: true, value: redactJson(exchange.response.json.value) } : exchange.response.json,
          },
        }
      : {}),
  }));
}
