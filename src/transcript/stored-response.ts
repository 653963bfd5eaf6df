import type { RecordedResponse } from './exchange.js';
import { parseBodyJson } from './json-body.js';

/**
 * A response as it is stored or passed to another thread: its parsed body is the body again, so it is left out
 * and parsed again where it is read, except where only the head and tail of a long body were kept.
 */
export type StoredResponse = Omit<RecordedResponse, 'json'> & { json?: RecordedResponse['json'] };

/** The exchange without the parsed value of a body it holds whole. */
export function withoutParsedBody<E extends { response?: RecordedResponse }>(exchange: E): Omit<E, 'response'> & { response?: StoredResponse } {
  if (!exchange.response || exchange.response.elided) return exchange;
  const { json: _parsed, ...response } = exchange.response;
  return { ...exchange, response };
}

/** The exchange with its body parsed again where the parsed value was left out. */
export function withParsedBody<E extends { response?: StoredResponse }>(exchange: E): Omit<E, 'response'> & { response?: RecordedResponse } {
  const { response, ...rest } = exchange;
  if (!response) return rest;
  return { ...rest, response: { ...response, json: response.json ?? parseBodyJson(response.body, response.truncated) } };
}
