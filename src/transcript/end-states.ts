import { isSecretKey, redactJson } from '../core/redact.js';
import type { Exchange } from './exchange.js';
import type { Transcript } from './transcript.js';
import type { OperationView } from './views.js';
import { acceptedOperationId, bodyObject, isFinalAnswer, isObject, operations } from './views.js';

/**
 * Where a plan or apply call ended: its final answer (a 200 answer, or the first final read of its
 * operation), or why it has none. `unknown` means the kit cannot tell (the run was stopped).
 */
export type EndState =
  | { ended: true; final: Exchange }
  | {
      ended: false;
      unknown: boolean;
      why: string;
      /** The call was accepted, then its work was lost, outlasted its deadline, or answered what the control plane cannot use. */
      afterAccepting?: 'lost' | 'unexpected' | 'deadline';
    };

/** What a judge needs to find the end of calls: operations by id and how the kit stopped following each 202. */
export class EndStates {
  private readonly byId = new Map<string, OperationView>();
  private readonly pollEnd = new Map<number, string>();

  constructor(transcript: Transcript) {
    for (const op of operations(transcript)) this.byId.set(op.operationId, op);
    // Stryker disable next-line ConditionalExpression: other events carry no acceptedSeq, and an undefined key is never asked for; the test narrows the type
    for (const event of transcript.events) if (event.type === 'poll-ended') this.pollEnd.set(event.acceptedSeq, event.reason);
  }

  /** The operation a 202 answer named, when it named one. */
  operationOf(post: Exchange): OperationView | undefined {
    const id = acceptedOperationId(post);
    // Stryker disable next-line ConditionalExpression: byId has no undefined key either way; the test narrows the type
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Whether any operation of the transcript besides `except` (none when not given) reached a final answer. */
  someOperationEnded(except: (op: OperationView) => boolean = () => false): boolean {
    for (const op of this.byId.values()) if (!except(op) && op.finalReads.length > 0) return true;
    return false;
  }

  /** Why operations besides `except` did not end, when the kit knows (lost, past the deadline). */
  failuresOutside(except: (op: OperationView) => boolean): Set<string> {
    const whys = new Set<string>();
    for (const op of this.byId.values()) {
      if (except(op)) continue;
      const end = this.of(op.accepted);
      if (!end.ended && !end.unknown) whys.add(end.why);
    }
    return whys;
  }

  of(post: Exchange): EndState {
    if (post.error) return { ended: false, unknown: post.error.kind === 'stopped', why: `got no answer (${post.error.kind})` };
    // Stryker disable next-line OptionalChaining: a call without a transport error has a response
    const status = post.response?.status;
    if (status === 200) {
      return isFinalAnswer(post) ? { ended: true, final: post } : { ended: false, unknown: false, why: 'answered 200 without a final outcome' };
    }
    if (status !== 202) return { ended: false, unknown: false, why: `answered ${status}` };
    const op = this.operationOf(post);
    if (!op) return { ended: false, unknown: false, why: 'answered 202 without an operationId to follow' };
    const first = op.finalReads.find((read) => read.endedAt === op.firstFinalReceivedAt);
    if (first) return { ended: true, final: first };
    switch (this.pollEnd.get(post.seq) ?? this.pollEnd.get(op.accepted.seq)) {
      case 'lost':
        return { ended: false, unknown: false, why: 'answered 202, then its operation answered 404 before any final answer', afterAccepting: 'lost' };
      case 'unexpected':
        return { ended: false, unknown: false, why: 'answered 202, then a read of its operation answered 200 with a body that is no operation answer', afterAccepting: 'unexpected' };
      case 'deadline':
        return { ended: false, unknown: false, why: 'answered 202, then gave no final answer within maxOperationDuration', afterAccepting: 'deadline' };
      case 'final':
        return { ended: false, unknown: false, why: 'answered 202, then gave no final answer' };
      default:
        return { ended: false, unknown: true, why: 'answered 202, and the kit stopped following it before its end' };
    }
  }
}

/** One change's part of a final answer: its outcome and outputs. */
interface ChangeEnd {
  outcome: unknown;
  outputs: unknown;
}

/** A field that differs between two final answers, for one change. */
export interface EndDifference {
  /** `shop-db in test` */
  change: string;
  /** `outcome`, `outputs.password`, `result` */
  field: string;
  first: string;
  second: string;
}

/** Results of a final answer by id and environment; a result that is not an object with string keys is left out. */
function changeEnds(final: Exchange): Map<string, { id: string; environment: string; end: ChangeEnd }> {
  const ends = new Map<string, { id: string; environment: string; end: ChangeEnd }>();
  const results = bodyObject(final)?.results;
  if (!Array.isArray(results)) return ends;
  for (const result of results) {
    if (!isObject(result) || typeof result.id !== 'string' || typeof result.environment !== 'string') continue;
    const key = JSON.stringify([result.id, result.environment]);
    if (!ends.has(key)) ends.set(key, { id: result.id, environment: result.environment, end: { outcome: result.outcome, outputs: result.outputs } });
  }
  return ends;
}

/**
 * What differs between two final answers, change by change (matched by id and environment): the
 * outcome, and with `outputs` the outputs as JSON values (key order does not matter; no outputs and
 * an empty object are the same).
 */
export function endDifferences(first: Exchange, second: Exchange, options: { outputs: boolean }): EndDifference[] {
  const a = changeEnds(first);
  const b = changeEnds(second);
  const differences: EndDifference[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const left = a.get(key);
    const right = b.get(key);
    const named = (left ?? right)!;
    const change = `${named.id} in ${named.environment}`;
    if (!left || !right) {
      differences.push({ change, field: 'result', first: left ? 'present' : 'missing', second: right ? 'present' : 'missing' });
      continue;
    }
    if (!sameJson(left.end.outcome, right.end.outcome)) {
      differences.push({ change, field: 'outcome', first: shown(left.end.outcome), second: shown(right.end.outcome) });
    }
    if (options.outputs) differences.push(...outputDifferences(change, left.end.outputs ?? {}, right.end.outputs ?? {}));
  }
  return differences;
}

function outputDifferences(change: string, left: unknown, right: unknown): EndDifference[] {
  if (sameJson(left, right)) return [];
  if (!isObject(left) || !isObject(right)) return [{ change, field: 'outputs', first: shown(left), second: shown(right) }];
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  return keys
    .filter((key) => !sameJson(left[key], right[key]))
    .map((key) =>
      // Notes are not masked on the way out like bodies are: a secret output's values are never put in one.
      isSecretKey(key)
        ? { change, field: `outputs.${key}`, first: 'a secret value', second: 'a different one' }
        : { change, field: `outputs.${key}`, first: shown(left[key]), second: shown(right[key]) },
    );
}

/** Equal as JSON values: objects compare by their keys whatever their order, arrays by position. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

const SHOWN_LENGTH = 80;

function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(redactJson(value));
  return text.length <= SHOWN_LENGTH ? text : `${text.slice(0, SHOWN_LENGTH - 1)}…`;
}

/** `outputs.password "a" vs "b"; outcome "succeeded" vs "failed"` for one change. */
export function describeDifferences(differences: readonly EndDifference[]): string {
  const byChange = new Map<string, string[]>();
  for (const d of differences) {
    const list = byChange.get(d.change) ?? [];
    list.push(`${d.field} ${d.first} vs ${d.second}`);
    byChange.set(d.change, list);
  }
  return [...byChange].map(([change, fields]) => `${change}: ${fields.join(', ')}`).join('; ');
}
