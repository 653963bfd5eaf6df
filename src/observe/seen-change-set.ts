import { createHash } from 'node:crypto';
import type { ChangeKey, ChangeSetInfo } from '../core/judge-context.js';
import { resolvePointer } from '../core/json-pointer.js';
import { changeSetSchema } from '../shapes/generated/schemas.js';

/** A change set as real traffic sent it: the body of a POST, named by its type and a hash of its bytes. */
export interface SeenChangeSet extends ChangeSetInfo {
  /** `kind/type` when the body says, else undefined. */
  resourceType?: string;
  /** The actions of its changes (`created`, `updated`, `removed`, …), as written. */
  actions: string[];
  /** sha256 (hex) of the body as sent. */
  sha256: string;
  text: string;
  /** The body is bad input, judged as a run judges its bad-input probes: not JSON, or JSON but no change set. */
  badInput?: 'malformed-json' | 'invalid-change-set';
}

const ACTIONS: readonly unknown[] = changeSetSchema.$defs.change.properties.action.enum;

/** A name safe in a file name and a report: letters, digits, dot, dash and underscore. */
function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'change-set';
}

/**
 * What a POST body says as a change set: its name (`kind-type-<hash>`), its changes at the pointer (to match
 * results by id and environment), its type and actions. A body that is no change set still gets a name; its
 * changes are then unknown, and why.
 */
export function seenChangeSet(text: string, changesPointer: string): SeenChangeSet {
  const sha256 = createHash('sha256').update(text).digest('hex');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { name: `change-set-${sha256.slice(0, 12)}`, changesError: 'the body is not JSON', actions: [], sha256, text, badInput: 'malformed-json' };
  }
  const top = isPlainObject(document) ? document : {};
  const resourceType = typeof top.kind === 'string' && typeof top.type === 'string' ? `${top.kind}/${top.type}` : undefined;
  const name = `${resourceType === undefined ? 'change-set' : safe(resourceType)}-${sha256.slice(0, 12)}`;
  const named = { name, ...(resourceType !== undefined && { resourceType }) };
  const found = resolvePointer(document, changesPointer);
  const invalid = isPlainObject(document) && found.found && isChangeList(found.value) ? {} : { badInput: 'invalid-change-set' as const };
  if (!found.found || !Array.isArray(found.value)) {
    return { ...named, changesError: `no array of changes at ${changesPointer || '""'}`, actions: [], sha256, text, ...invalid };
  }
  const changes: ChangeKey[] = [];
  const actions: string[] = [];
  for (const change of found.value as unknown[]) {
    const entry = isPlainObject(change) ? change : {};
    if (typeof entry.action === 'string') actions.push(entry.action);
    if (typeof entry.id !== 'string' || typeof entry.environment !== 'string') {
      return { ...named, changesError: 'a change has no string id and environment', actions, sha256, text, ...invalid };
    }
    changes.push({ id: entry.id, environment: entry.environment });
  }
  return { ...named, changes, actions, sha256, text, ...invalid };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether changes are what the contract says of them (schemas/change-set.schema.json): at least one, each with a
 * non-empty id and environment, one of its actions, properties an object when given, and no id twice in one
 * environment. Top-level fields are not judged: a provisioner may ignore them.
 */
function isChangeList(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  const keys = new Set<string>();
  for (const change of value as unknown[]) {
    if (!isPlainObject(change)) return false;
    const { id, environment, action, properties } = change;
    if (typeof id !== 'string' || id === '' || typeof environment !== 'string' || environment === '') return false;
    if (!ACTIONS.includes(action) || (properties !== undefined && !isPlainObject(properties))) return false;
    const key = JSON.stringify([id, environment]);
    if (keys.has(key)) return false;
    keys.add(key);
  }
  return true;
}
