import type { ChangeKey } from '../../../src/core/judge-context.js';
import { isObject } from '../../../src/transcript/views.js';

/**
 * How a final answer's results miss the changes of its change set: missing, extra or doubled pairs of id and
 * environment. Empty when there is exactly one result per change; a results field that is no array is another rule's.
 */
export function resultsProblems(results: unknown, changes: readonly ChangeKey[]): string[] {
  if (!Array.isArray(results)) return [];
  const wanted = new Set(changes.map((change) => pairKey(change.id, change.environment)));
  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const result of results) {
    const id = isObject(result) ? result.id : undefined;
    const environment = isObject(result) ? result.environment : undefined;
    if (typeof id !== 'string' || typeof environment !== 'string') {
      problems.push('a result has no string id and environment');
      continue;
    }
    const key = pairKey(id, environment);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const change of changes) {
    const count = seen.get(pairKey(change.id, change.environment)) ?? 0;
    if (count === 0) problems.push(`no result for ${label(change.id, change.environment)}`);
    if (count > 1) problems.push(`${count} results for ${label(change.id, change.environment)}`);
  }
  for (const key of seen.keys()) {
    if (!wanted.has(key)) {
      const [id, environment] = JSON.parse(key) as [string, string];
      problems.push(`an extra result ${label(id, environment)}`);
    }
  }
  return problems;
}

function pairKey(id: string, environment: string): string {
  return JSON.stringify([id, environment]);
}

function label(id: string, environment: string): string {
  return `${JSON.stringify(id)} in ${JSON.stringify(environment)}`;
}
