import type { Exchange } from '../../transcript/exchange.js';
import type { Evidence, Judgement } from '../types.js';

/** Judge helpers every rule module uses: the judgements, evidence, and how notes name exchanges. How they name JSON values is src/shapes' (words.ts). */

/** The rule was exercised and nothing contradicted it. */
export function held(message: string, evidence?: Evidence[]): Judgement {
  return evidence && evidence.length > 0 ? { outcome: 'held', message, evidence } : { outcome: 'held', message };
}

/** The rule was exercised and broken; `count` defaults to the number of evidence entries. */
export function broken(message: string, evidence: Evidence[], count?: number): Judgement {
  return { outcome: 'broken', message, evidence, count: count ?? evidence.length };
}

/** The provisioner never chose the way of answering the rule is about, as the contract allows; the message names the evidence. */
export function notApplicable(message: string): Judgement {
  return { outcome: 'not-applicable', message };
}

/** The situation the rule is about never happened in this run, though the run should have produced it. */
export function notExercised(message: string): Judgement {
  return { outcome: 'not-exercised', message };
}

/** A note with the exchanges that show it; the first exchange is the key one a report repeats. */
export function evidence(note: string, ...exchanges: Exchange[]): Evidence {
  return { note, exchanges: exchanges.map((e) => e.seq) };
}

/** `POST /plan`, `GET /operations/…`: how notes name an exchange. */
export function requestLabel(exchange: Exchange): string {
  let path = exchange.request.url;
  try {
    path = new URL(exchange.request.url).pathname;
  } catch {
    // keep the URL as sent: a note must never fail on it
  }
  return `${exchange.request.method} ${path}`;
}
