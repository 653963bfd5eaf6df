import { readFile, readdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { ChangeKey, ChangeSetInfo } from '../core/judge-context.js';
import { resolvePointer } from '../core/json-pointer.js';
import { jsonSyntaxError } from '../core/json.js';
import { ConfigError, unreadableFile } from '../errors.js';
import { RUN_DEFAULTS } from './defaults.js';
import { bundledPath } from '../core/package.js';

/** A change set as the kit sends it (byte for byte) and what it knows of its changes. */
export interface LoadedChangeSet extends ChangeSetInfo {
  file: string;
  /** The file's text, sent as it is. */
  text: string;
  changes: ChangeKey[];
  /** Applies with the same key never run at once, as the control plane locks per application and environment. */
  lockKey: string;
  /**
   * The resource type (kind and type): one control-plane run applies one change set per type, all at once.
   * Undefined when the change set does not say; such a change set is applied in a run of its own.
   */
  resourceType?: string;
}

export async function bundledChangeSetFiles(): Promise<string[]> {
  const folder = bundledPath('fixtures', 'change-sets');
  const names = (await readdir(folder)).filter((name) => name.endsWith('.json')).sort();
  return names.map((name) => join(folder, name));
}

/** Reads change-set files; anything that keeps the kit from knowing the changes is a configuration error. */
export async function loadChangeSets(files: string[], changesPointer: string): Promise<LoadedChangeSet[]> {
  const loaded: LoadedChangeSet[] = [];
  const names = new Set<string>();
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw unreadableFile('--change-set', file, error);
    }
    const changeSet = parseChangeSet(file, text, changesPointer);
    let name = changeSet.name;
    for (let n = 2; names.has(name); n++) name = `${changeSet.name}-${n}`;
    names.add(name);
    loaded.push({ ...changeSet, name });
  }
  return loaded;
}

export function parseChangeSet(file: string, text: string, changesPointer: string): LoadedChangeSet {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ConfigError('--change-set', `${file} is not JSON: ${jsonSyntaxError(text, error)}`);
  }
  // What the file is comes before where its changes are: an array or a number is no change set whatever the pointer.
  if (changesPointer !== '' && (typeof document !== 'object' || document === null || Array.isArray(document))) {
    throw new ConfigError('--change-set', `${file} is ${kindOf(document)}, not a change set: a change set is a JSON object with its changes under ${changesPointer || '""'}`);
  }
  // The pointer is blamed only when the user chose it; under the default one, the file lacks what every change set has.
  const blamed = changesPointer === RUN_DEFAULTS.changesPath ? '--change-set' : '--changes-path';
  const found = resolvePointer(document, changesPointer);
  if (!found.found) {
    throw new ConfigError(blamed, `${file} has nothing at ${found.at} (pointer ${changesPointer || '""'})`);
  }
  if (!Array.isArray(found.value) || found.value.length === 0) {
    throw new ConfigError(blamed, `${changesPointer} in ${file} is not a non-empty array of changes`);
  }
  const changes = found.value.map((change, index): ChangeKey => {
    const id = (change as { id?: unknown } | null)?.id;
    const environment = (change as { environment?: unknown } | null)?.environment;
    if (typeof id !== 'string' || typeof environment !== 'string') {
      throw new ConfigError('--change-set', `change ${index} in ${file} has no string id and environment`);
    }
    return { id, environment };
  });
  const top = document as { application?: unknown; environment?: unknown; kind?: unknown; type?: unknown };
  const lockKey = `${String(top.application ?? '')}\u0000${String(top.environment ?? '')}`;
  const resourceType = typeof top.kind === 'string' && typeof top.type === 'string' ? `${top.kind}/${top.type}` : undefined;
  return { name: basename(file, extname(file)), file, text, changes, lockKey, ...(resourceType !== undefined && { resourceType }) };
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a JSON array';
  if (value === null) return 'JSON null';
  return `a JSON ${typeof value}`;
}
