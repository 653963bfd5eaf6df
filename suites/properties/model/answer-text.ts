import type { Exchange } from '../../../src/transcript/exchange.js';
import { bodyObject, outcomeOf } from '../../../src/transcript/views.js';

/** What came back, short enough for a command line: `202 3f2a…`, `200 succeeded`, `404`, `timeout`. */
export function answerText(exchange: Exchange): string {
  if (exchange.error) return exchange.error.kind;
  const status = exchange.response?.status;
  const outcome = outcomeOf(exchange);
  if (outcome !== undefined) return `${status} ${outcome}`;
  const operationId = bodyObject(exchange)?.operationId;
  if (status === 202 && typeof operationId === 'string') return `202 ${operationId}`;
  return String(status);
}
