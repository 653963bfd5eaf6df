import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import { pointerTokens, resolvePointer } from '../../src/core/json-pointer.js';

export type JsonObject = { [key: string]: unknown };

/**
 * A user's change set that generated change sets are made from: everything but its changes is sent as it
 * is, so a provisioner registered for one resource type (or one body format) gets bodies it can read.
 */
export interface ChangeSetTemplate {
  /** The name of the change set it comes from. */
  name: string;
  /** The parsed change set. */
  document: unknown;
  /** JSON pointer to its array of changes (`--changes-path`). */
  changesPointer: string;
  /** Its first change: every generated change starts from it, so the fields a provisioner needs stay. */
  firstChange: JsonObject;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The template of a loaded change set; loading already checked that its pointer names a non-empty array of changes. */
export function templateOf(changeSet: Pick<LoadedChangeSet, 'name' | 'text'>, changesPointer: string): ChangeSetTemplate {
  const document = JSON.parse(changeSet.text) as unknown;
  const found = resolvePointer(document, changesPointer);
  const first: unknown = found.found && Array.isArray(found.value) ? found.value[0] : undefined;
  if (!isJsonObject(first)) throw new Error(`${changeSet.name} has no change object at ${changesPointer || '""'}`);
  return { name: changeSet.name, document, changesPointer, firstChange: first };
}

/** The template's document with its changes array replaced by `changes`; nothing else in it changes. */
export function withChanges(template: ChangeSetTemplate, changes: unknown[]): unknown {
  if (template.changesPointer === '') return changes;
  const document = structuredClone(template.document);
  const tokens = pointerTokens(template.changesPointer);
  const last = tokens.pop()!;
  let parent: unknown = document;
  for (const token of tokens) parent = (parent as Record<string, unknown>)[token];
  // Arrays are indexed by their token as a string too: the pointer resolved when the template was made.
  (parent as Record<string, unknown>)[last] = changes;
  return document;
}
