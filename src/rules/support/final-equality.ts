import type { Exchange } from '../../transcript/exchange.js';
import { bodyObject, isObject } from '../../transcript/views.js';

/** The parts of a result that make up the end state; descriptions are free text and may change. */
interface ResultState {
  /** Id and environment as a JSON pair: `a/b` in `c` and `a` in `b/c` are two changes. */
  key: string;
  /** `shop-db in test`, as notes name it. */
  label: string;
  outcome: string;
  outputs: unknown;
}

/** The end state a final answer reports: its outcome and each result's state, keyed by id and environment. */
export interface FinalState {
  outcome: string;
  results: Map<string, ResultState>;
}

/** JSON text with object keys sorted, so that two equal values always print the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

function resultState(result: unknown, index: number): ResultState {
  if (!isObject(result)) {
    const label = `#${index + 1} ${canonicalJson(result)}`;
    // Stryker disable next-line StringLiteral: a result that is not an object is compared by its key, which holds its JSON; its outcome is the same constant on both sides
    return { key: label, label, outcome: '', outputs: undefined };
  }
  const key = JSON.stringify([result.id ?? null, result.environment ?? null]);
  return { key, label: `${nameOf(result.id)} in ${nameOf(result.environment)}`, outcome: String(result.outcome), outputs: result.outputs };
}

function nameOf(value: unknown): string {
  return typeof value === 'string' ? value : canonicalJson(value);
}

export function finalState(exchange: Exchange): FinalState {
  const body = bodyObject(exchange);
  const results = Array.isArray(body?.results) ? body.results : [];
  const states = results.map(resultState).sort((a, b) => a.key.localeCompare(b.key));
  const map = new Map<string, ResultState>();
  for (const state of states) {
    // A doubled result is final.results-match-changes' business; mark it so that a change in doubling still shows.
    const doubled = map.has(state.key);
    const key = doubled ? `${state.key} (again)` : state.key;
    map.set(key, { ...state, key, label: doubled ? `${state.label} (again)` : state.label });
  }
  return { outcome: String(body?.outcome), results: map };
}

/** How a later final answer differs from the first one, one phrase per difference; empty when they agree. */
export function finalDifferences(first: FinalState, later: FinalState): string[] {
  const differences: string[] = [];
  if (first.outcome !== later.outcome) differences.push(`outcome ${first.outcome} became ${later.outcome}`);
  for (const [key, was] of first.results) {
    const now = later.results.get(key);
    if (!now) {
      differences.push(`result ${was.label} disappeared`);
      continue;
    }
    if (was.outcome !== now.outcome) differences.push(`result ${was.label} outcome ${was.outcome} became ${now.outcome}`);
    const outputs = changedOutputs(was.outputs, now.outputs);
    if (outputs) differences.push(`result ${was.label} ${outputs}`);
  }
  for (const [key, now] of later.results) {
    if (!first.results.has(key)) differences.push(`result ${now.label} appeared`);
  }
  return differences;
}

/** Which outputs changed, by name only: output values may be secrets, and notes are printed as they are. */
function changedOutputs(was: unknown, now: unknown): string | undefined {
  if (canonicalJson(was) === canonicalJson(now)) return undefined;
  if (!isObject(was) || !isObject(now)) return 'outputs changed';
  const names = [...new Set([...Object.keys(was), ...Object.keys(now)])]
    .filter((name) => canonicalJson(was[name]) !== canonicalJson(now[name]))
    .sort();
  return `outputs changed: ${names.join(', ')}`;
}
