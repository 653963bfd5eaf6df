import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SubmitKind } from '../transcript/exchange.js';
import { checkChangeSet } from './change-set.js';
import type { Operation } from './operation.js';
import type { ChangeResult, OutcomeBody } from './outcomes.js';

/** Where the operations outlive the process: a file, or (in-process) memory kept across restarts. */
export interface StoreBackend {
  /** For messages: the file, or "memory". */
  name: string;
  /** The operations last saved, as new objects with a fresh read history; undefined when nothing was saved yet. */
  load(): Operation[] | undefined;
  save(operations: readonly Operation[]): void;
}

/** A file rewritten atomically on every change: the new text goes to a temporary file that then replaces the old one. */
export function fileBackend(path: string): StoreBackend {
  const temporary = `${path}.${process.pid}.tmp`;
  return {
    name: path,
    load: () => (existsSync(path) ? decodeOperations(readFileSync(path, 'utf8'), path) : undefined),
    save: (operations) => {
      writeFileSync(temporary, encodeOperations(operations));
      renameSync(temporary, path);
    },
  };
}

/**
 * Kept by the handle of an in-process reference, so that a restart loses everything but this. Saving keeps a
 * copy of the list (what is stored of an operation never changes); loading goes through the file format, so
 * a restart takes over exactly what a store file would have held.
 */
export function memoryBackend(): StoreBackend {
  let saved: readonly Operation[] | undefined;
  return {
    name: 'memory',
    load: () => (saved === undefined ? undefined : decodeOperations(encodeOperations(saved), 'memory')),
    save: (operations) => {
      saved = [...operations];
    },
  };
}

const FORMAT = 'provisioner-conformance reference store';
const VERSION = 1;

/** One operation as stored: the read history is left out, and work that never ends has finishesAt null. */
interface StoredOperation {
  id: string;
  kind: SubmitKind;
  changeSet: unknown;
  acceptedAt: number;
  knownFrom: number;
  finishesAt: number | null;
  final: OutcomeBody;
}

export function encodeOperations(operations: readonly Operation[]): string {
  const stored: StoredOperation[] = operations.map(({ id, kind, changeSet, acceptedAt, knownFrom, finishesAt, final }) => ({
    id,
    kind,
    changeSet,
    acceptedAt,
    knownFrom,
    finishesAt: Number.isFinite(finishesAt) ? finishesAt : null,
    final,
  }));
  return `${JSON.stringify({ format: FORMAT, version: VERSION, operations: stored })}\n`;
}

/** Reads a store's text back; a store the reference did not write is an error, never silently emptied. */
export function decodeOperations(text: string, source: string): Operation[] {
  const problem = (what: string): Error => new Error(`${source} is not a reference store: ${what}`);
  let document: unknown;
  try {
    document = JSON.parse(text) as unknown;
  } catch (error) {
    throw problem((error as Error).message);
  }
  if (!isRecord(document) || document.format !== FORMAT) throw problem(`its "format" is not "${FORMAT}"`);
  if (document.version !== VERSION) throw problem(`version ${JSON.stringify(document.version)} is not ${VERSION}`);
  if (!Array.isArray(document.operations)) throw problem('"operations" is not an array');
  return document.operations.map((raw, index) => {
    const operation = decodeOperation(raw);
    if (typeof operation === 'string') throw problem(`operations[${index}] ${operation}`);
    return operation;
  });
}

function decodeOperation(raw: unknown): Operation | string {
  if (!isRecord(raw)) return 'is not an object';
  const { id, kind, changeSet, acceptedAt, knownFrom, finishesAt, final } = raw;
  if (typeof id !== 'string') return 'has no string id';
  if (kind !== 'plan' && kind !== 'apply') return 'has a kind other than plan or apply';
  const checked = checkChangeSet(changeSet);
  if (!checked.ok) return `has no valid change set: ${checked.error}`;
  if (!isTime(acceptedAt) || !isTime(knownFrom) || !(finishesAt === null || isTime(finishesAt))) return 'has times that are not numbers';
  if (!isOutcome(final)) return 'has no final answer';
  return {
    id,
    kind,
    changeSet: checked.changeSet,
    acceptedAt,
    knownFrom,
    finishesAt: finishesAt ?? Number.POSITIVE_INFINITY,
    final,
    history: { readsBeforeFinal: 0, finalGiven: false, readsAfterFinal: 0 },
  };
}

function isOutcome(value: unknown): value is OutcomeBody {
  return isRecord(value) && typeof value.outcome === 'string' && typeof value.description === 'string' && Array.isArray(value.results) && value.results.every(isResult);
}

function isResult(value: unknown): value is ChangeResult {
  return isRecord(value) && typeof value.id === 'string' && typeof value.environment === 'string' && typeof value.outcome === 'string';
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
