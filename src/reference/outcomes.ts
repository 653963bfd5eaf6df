import { createHash } from 'node:crypto';
import type { SubmitKind } from '../transcript/exchange.js';
import { plural } from '../core/text.js';
import type { Change, ChangeAction, ChangeSet } from './change-set.js';

export interface ChangeResult {
  id: string;
  environment: string;
  /** succeeded or failed; a string because one fault sends a value outside the contract. */
  outcome: string;
  description: string;
  outputs?: Record<string, string>;
}

/** The body of a 200 answer to POST and of every 200 read. */
export interface OutcomeBody {
  outcome: string;
  description: string;
  results: ChangeResult[];
}

// Progress notes quote ids, which callers may make very long; the contract wants notes short.
const MAX_NAME_IN_NOTE = 120;

const PAST: Record<ChangeAction, string> = { created: 'Created', updated: 'Updated', removed: 'Removed' };
const PRESENT: Record<ChangeAction, string> = { created: 'create', updated: 'update', removed: 'remove' };
const ONGOING: Record<ChangeAction, string> = { created: 'creating', updated: 'updating', removed: 'removing' };

/** What the work of a plan or apply produces: every change succeeds. */
export function finalAnswer(kind: SubmitKind, changeSet: ChangeSet): OutcomeBody {
  return {
    outcome: 'succeeded',
    description: summary(kind, changeSet),
    results: changeSet.changes.map((change) => succeededResult(kind, changeSet, change)),
  };
}

/** The same work, had every change failed: overall and per change. */
export function failedAnswer(kind: SubmitKind, changeSet: ChangeSet): OutcomeBody {
  const count = changeSet.changes.length;
  return {
    outcome: 'failed',
    description:
      kind === 'plan'
        ? `Could not plan ${plural(count, 'change')} for ${subject(changeSet)}.`
        : `Could not apply ${plural(count, 'change')} to ${subject(changeSet)}.`,
    results: changeSet.changes.map((change) => failedResult(kind, change)),
  };
}

export function failedResult(kind: SubmitKind, change: Change): ChangeResult {
  const verb = kind === 'plan' ? `plan to ${PRESENT[change.action]}` : PRESENT[change.action];
  return { id: change.id, environment: change.environment, outcome: 'failed', description: `Could not ${verb} ${change.id} in ${change.environment}.` };
}

export function inProgressAnswer(description: string, results: ChangeResult[] = []): OutcomeBody {
  return { outcome: 'in_progress', description, results };
}

/** A note like "Step 2 of 3: creating shop-db in test." for work that is `fraction` done (0 ≤ fraction < 1). */
export function progressNote(kind: SubmitKind, changeSet: ChangeSet, fraction: number): string {
  const total = changeSet.changes.length;
  const step = Math.min(total, Math.floor(fraction * total) + 1);
  const change = changeSet.changes[step - 1]!;
  const doing = kind === 'plan' ? `checking how to ${PRESENT[change.action]}` : ONGOING[change.action];
  return `Step ${step} of ${total}: ${doing} ${shorten(change.id)} in ${shorten(change.environment)}.`;
}

function succeededResult(kind: SubmitKind, changeSet: ChangeSet, change: Change): ChangeResult {
  const { id, environment, action } = change;
  if (kind === 'plan') {
    return { id, environment, outcome: 'succeeded', description: `Would ${PRESENT[action]} ${id} in ${environment}; nothing changed.` };
  }
  const result: ChangeResult = { id, environment, outcome: 'succeeded', description: `${PAST[action]} ${id} in ${environment}.` };
  if (action !== 'removed') result.outputs = outputsOf(changeSet, change);
  return result;
}

/** Outputs depend only on the resource type and the change's id and environment, so applying again gives the same. */
function outputsOf(changeSet: ChangeSet, change: Change): Record<string, string> {
  if (changeSet.type === 'postgres') {
    return { password: `vault://reference/${encodeURIComponent(change.environment)}/${encodeURIComponent(change.id)}-password` };
  }
  const digest = createHash('sha256')
    .update(JSON.stringify([changeSet.kind ?? '', changeSet.type ?? '', change.environment, change.id]))
    .digest('hex');
  return { resourceId: `${changeSet.type || 'resource'}-${digest.slice(0, 12)}` };
}

function summary(kind: SubmitKind, changeSet: ChangeSet): string {
  const count = plural(changeSet.changes.length, 'change');
  return kind === 'plan' ? `Planned ${count} for ${subject(changeSet)}; nothing changed.` : `Applied ${count} to ${subject(changeSet)}.`;
}

/** "managed-resource/postgres of container-shop in test", from whatever the change set names. */
function subject(changeSet: ChangeSet): string {
  const { kind, type, application, environment } = changeSet;
  let text = kind && type ? `${kind}/${type}` : type || kind || 'the resource type';
  if (application) text += ` of ${application}`;
  if (environment) text += ` in ${environment}`;
  return text;
}

function shorten(text: string): string {
  // Cut by code points so that no half of a surrogate pair is left behind.
  const chars = Array.from(text);
  return chars.length <= MAX_NAME_IN_NOTE ? text : `${chars.slice(0, MAX_NAME_IN_NOTE - 1).join('')}…`;
}
