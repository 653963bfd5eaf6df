import type { JsonParse } from '../core/json.js';
import { textNestsDeeperThan } from './text-depth.js';

/** Deepest nesting of an answer the kit keeps as parsed JSON: report writers and rules walk values recursively. */
export const MAX_JSON_DEPTH = 1000;

/** Parses a response body as JSON whatever its content type said, or says why it could not. */
export function parseBodyJson(text: string, truncated: boolean): JsonParse {
  if (truncated) return { ok: false, error: 'the body was cut at the size limit, so it was not parsed' };
  if (text.trim() === '') return { ok: false, error: 'the body is empty' };
  // An answer nested thousands deep (one that echoes a bad-input probe back, say) would overflow every recursive
  // walk; the scan refuses it before JSON.parse builds its whole tree.
  if (textNestsDeeperThan(text, MAX_JSON_DEPTH)) return { ok: false, error: `the JSON nests deeper than ${MAX_JSON_DEPTH} levels, more than the kit reads` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
