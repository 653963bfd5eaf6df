import { plural } from '../core/text.js';
import type { Phase } from './expected-end.js';
import { shortId } from './live-frame.js';

/** An operation in flight, as the waiting line names it. */
export interface WaitedOperation {
  id: string;
  /** `apply postgres` */
  label: string;
  /** The suite that started it; a property's cases count with their property. */
  suite?: string;
}

// More groups than this make the line too long to read at a glance; the biggest come first.
const GROUPS_NAMED = 3;

const PHASE_NAMES: Partial<Record<Phase, string>> = { restart: 'the restart', burst: 'the burst', properties: 'the properties' };

/** `apply postgres e510…1fc8` for the only operation of a group, `11 of property/model-based-runs` otherwise. */
function groupText(suite: string | undefined, operations: readonly WaitedOperation[]): string {
  if (operations.length === 1) {
    const only = operations[0]!;
    return `${suite === undefined ? '' : `${suite} `}${only.label} ${shortId(only.id)}`;
  }
  return `${operations.length} of ${suite ?? 'other suites'}`;
}

function groupsOf(operations: readonly WaitedOperation[]): Array<[string | undefined, WaitedOperation[]]> {
  const groups = new Map<string | undefined, WaitedOperation[]>();
  for (const operation of operations) {
    const group = groups.get(operation.suite);
    if (group) group.push(operation);
    else groups.set(operation.suite, [operation]);
  }
  // Stable: groups of one size stay in the order their first operation was accepted.
  return [...groups].sort(([, a], [, b]) => b.length - a.length);
}

/**
 * What the run waits for, after "waiting for": `12 operations (11 of property/model-based-runs, scenario/plan-and-apply
 * apply postgres e510…1fc8), then the burst and the properties`. Without an operation in flight, the suites still running.
 */
export function waitingForText(operations: readonly WaitedOperation[], suites: readonly string[], toCome: readonly Phase[]): string {
  let now: string;
  if (operations.length > 0) {
    const groups = groupsOf(operations);
    const named = groups.slice(0, GROUPS_NAMED).map(([suite, members]) => groupText(suite, members));
    if (groups.length > GROUPS_NAMED) named.push(plural(groups.length - GROUPS_NAMED, 'more suite'));
    now = `${plural(operations.length, 'operation')} (${named.join(', ')})`;
  } else {
    now = suites.length > 0 ? `${suites.join(', ')} (no operation in flight)` : 'no operation in flight';
  }
  const next = toCome.flatMap((phase) => PHASE_NAMES[phase] ?? []);
  if (next.length === 0) return now;
  const listed = next.length === 1 ? next[0]! : `${next.slice(0, -1).join(', ')} and ${next.at(-1)!}`;
  return `${now}, then ${listed}`;
}
