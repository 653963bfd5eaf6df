import { open, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * A JSON array whose items are made one at a time while it is written, so a report with tens of thousands
 * of exchanges never holds them all, nor their text, at once. `JSON.stringify` sees it as the array it stands for.
 * Each item is written as one piece (a streamed list inside an item is made whole with it).
 */
export class StreamedList<T> {
  constructor(private readonly make: () => Iterable<T>) {}

  items(): Iterable<T> {
    return this.make();
  }

  toJSON(): T[] {
    return [...this.make()];
  }
}

// Below this depth a value is handed to JSON.stringify whole: it can nest as deep as JSON.stringify allows.
const WALK_DEPTH = 12;

function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

// JSON.stringify writes a boxed primitive as the primitive.
function isBoxed(value: object): boolean {
  return value instanceof Number || value instanceof String || value instanceof Boolean;
}

function withToJson(value: unknown, key: string): unknown {
  if (value instanceof StreamedList) return value;
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

/**
 * The text of `JSON.stringify(value, null, gap)` in pieces, written out as they come: the same bytes, with
 * each {@link StreamedList} made item by item. `gap` is '' for compact JSON.
 */
export function jsonChunks(value: unknown, gap = ''): Generator<string> {
  return chunksOf(withToJson(value, ''), gap, '', 0);
}

/** `value` (its toJSON applied) as JSON.stringify writes it, its own lines taking this level's indent. */
function wholeText(value: unknown, gap: string, indent: string): string {
  // JSON text never holds a raw newline inside a string: every newline is the layout's.
  const text = JSON.stringify(value, null, gap) ?? 'null';
  return indent && text.includes('\n') ? text.replaceAll('\n', `\n${indent}`) : text;
}

// An item whose text is longer than this is walked after all: its long strings are then pieces of their own, and
// no piece holds them all (an exchange with a long body kept as head and tail, and its parsed value, made one
// text of hundreds of KB, two bytes a character for one '…', and as much again once masked).
const WHOLE_ITEM_CHARACTERS = 16 * 1024;

/** A streamed list's item: one piece, or walked when its text is long. */
function* itemText(item: unknown, gap: string, indent: string, depth: number): Generator<string> {
  const text = wholeText(item, gap, indent);
  if (text.length <= WHOLE_ITEM_CHARACTERS) yield text;
  else yield* chunksOf(item, gap, indent, depth);
}

/** `value` has had its toJSON applied already, as JSON.stringify applies it once. */
function* chunksOf(value: unknown, gap: string, indent: string, depth: number): Generator<string> {
  if (!(value instanceof StreamedList) && (typeof value !== 'object' || value === null || isBoxed(value) || depth >= WALK_DEPTH)) {
    yield wholeText(value, gap, indent);
    return;
  }
  const inner = indent + gap;
  const open = gap ? `\n${inner}` : '';
  const separator = gap ? `,\n${inner}` : ',';
  if (value instanceof StreamedList || Array.isArray(value)) {
    const items: Iterable<unknown> = value instanceof StreamedList ? value.items() : value;
    let index = 0;
    for (const raw of items) {
      yield index === 0 ? `[${open}` : separator;
      const item = withToJson(raw, String(index));
      if (skipped(item)) yield 'null';
      // A streamed list's item (an exchange) in one piece: walked through, each took some fifty pieces and as many
      // generator steps at every level, and writing a transcript of 40,000 exchanges allocated over a GB.
      // (One with a toJSON of its own is walked: JSON.stringify would apply a toJSON its toJSON returns again.)
      else if (value instanceof StreamedList && item === raw) yield* itemText(item, gap, inner, depth + 1);
      else yield* chunksOf(item, gap, inner, depth + 1);
      index++;
    }
    yield index === 0 ? '[]' : `${gap ? `\n${indent}` : ''}]`;
    return;
  }
  let written = 0;
  for (const name of Object.keys(value)) {
    const item = withToJson((value as Record<string, unknown>)[name], name);
    if (skipped(item)) continue;
    yield `${written === 0 ? `{${open}` : separator}${JSON.stringify(name)}:${gap ? ' ' : ''}`;
    yield* chunksOf(item, gap, inner, depth + 1);
    written++;
  }
  yield written === 0 ? '{}' : `${gap ? `\n${indent}` : ''}}`;
}

// Small enough that the text handed to each write stays an ordinary young object (V8 puts a string past
// 128 KB, which 64 Ki two-byte characters make, in its large-object space, freed only by a full
// collection): a report of tens of MB otherwise left the dead texts of its writes to pile up while it was written.
const FLUSH_CHARACTERS = 16 * 1024;

/**
 * Writes `JSON.stringify(value, null, gap)` and a newline to `path` piece by piece, creating its directory.
 * `piece` sees each piece before it is written (every string a piece holds is whole in it).
 */
export async function writeJsonFile(path: string, value: unknown, gap = '', piece: (chunk: string) => string = (chunk) => chunk): Promise<void> {
  await writeTextFile(path, jsonChunks(value, gap), piece, '\n');
}

/**
 * Writes a text made of pieces (UTF-8) to `path` as they come, in writes of about {@link FLUSH_CHARACTERS}, creating
 * its directory; `piece` sees each piece before it is written, and `end` is written last.
 */
export async function writeTextFile(path: string, pieces: Iterable<string>, piece: (chunk: string) => string = (chunk) => chunk, end = ''): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const file = await open(path, 'w');
  try {
    let pending: string[] = [];
    let size = 0;
    for (const raw of pieces) {
      const chunk = piece(raw);
      pending.push(chunk);
      size += chunk.length;
      if (size >= FLUSH_CHARACTERS) {
        await file.write(pending.join(''), null, 'utf8');
        pending = [];
        size = 0;
      }
    }
    pending.push(end);
    await file.write(pending.join(''), null, 'utf8');
  } finally {
    await file.close();
  }
}
