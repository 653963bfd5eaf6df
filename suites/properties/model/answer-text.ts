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

/** `→ 200 in_progress ×3, 200 succeeded`: repeated answers counted, so that a long wait stays one line. */
export function shortList(answers: readonly string[]): string {
  const runs: Array<{ answer: string; count: number }> = [];
  for (const answer of answers) {
    const last = runs.at(-1);
    if (last?.answer === answer) last.count += 1;
    else runs.push({ answer, count: 1 });
  }
  return `→ ${runs.map((r) => (r.count > 1 ? `${r.answer} ×${r.count}` : r.answer)).join(', ')}`;
}
