export type ChangeAction = 'created' | 'updated' | 'removed';

const ACTIONS: readonly string[] = ['created', 'updated', 'removed'] satisfies readonly ChangeAction[];

export interface Change {
  id: string;
  environment: string;
  action: ChangeAction;
  properties?: Record<string, unknown>;
}

/** The body of POST /plan and POST /apply: the changes of one resource type. */
export interface ChangeSet {
  kind?: string;
  type?: string;
  application?: string;
  environment?: string;
  changes: Change[];
}

export type ChangeSetCheck = { ok: true; changeSet: ChangeSet } | { ok: false; error: string };

const OPTIONAL_TEXT_FIELDS = ['kind', 'type', 'application', 'environment'] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Checks a parsed JSON body against the change-set shape; the first problem found is the error. */
export function checkChangeSet(value: unknown): ChangeSetCheck {
  if (!isPlainObject(value)) return { ok: false, error: 'the body must be a JSON object' };
  const changeSet: ChangeSet = { changes: [] };
  for (const field of OPTIONAL_TEXT_FIELDS) {
    const text = value[field];
    if (text === undefined) continue;
    if (!isNonEmptyString(text)) return { ok: false, error: `${field} must be a non-empty string when present` };
    changeSet[field] = text;
  }
  const changes = value.changes;
  if (!Array.isArray(changes) || changes.length === 0) return { ok: false, error: 'changes must be a non-empty array' };
  const seen = new Set<string>();
  for (const [index, raw] of changes.entries()) {
    const checked = checkChange(raw, `changes[${index}]`);
    if (!checked.ok) return checked;
    const key = JSON.stringify([checked.change.id, checked.change.environment]);
    if (seen.has(key)) {
      return { ok: false, error: `changes[${index}] repeats id ${JSON.stringify(checked.change.id)} in environment ${JSON.stringify(checked.change.environment)}` };
    }
    seen.add(key);
    changeSet.changes.push(checked.change);
  }
  return { ok: true, changeSet };
}

function checkChange(raw: unknown, where: string): { ok: true; change: Change } | { ok: false; error: string } {
  if (!isPlainObject(raw)) return { ok: false, error: `${where} must be an object` };
  const { id, environment, action, properties } = raw;
  if (!isNonEmptyString(id)) return { ok: false, error: `${where}.id must be a non-empty string` };
  if (!isNonEmptyString(environment)) return { ok: false, error: `${where}.environment must be a non-empty string` };
  if (typeof action !== 'string' || !ACTIONS.includes(action)) {
    return { ok: false, error: `${where}.action must be one of ${ACTIONS.join(', ')}` };
  }
  if (properties !== undefined && !isPlainObject(properties)) return { ok: false, error: `${where}.properties must be an object when present` };
  const change: Change = { id, environment, action: action as ChangeAction };
  if (properties !== undefined) change.properties = properties;
  return { ok: true, change };
}
