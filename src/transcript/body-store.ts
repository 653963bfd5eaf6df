import { createHash } from 'node:crypto';
import type { JsonParse, RecordedResponse } from './exchange.js';
import { parseBodyJson } from './json-body.js';

/** Bodies up to this size are kept whole; a longer one keeps its head and tail (judges still get its parsed value). */
export const KEEP_WHOLE_BYTES = 64 * 1024;
const HEAD_BYTES = 16 * 1024;
const TAIL_BYTES = 4 * 1024;

export type StoredBody = Pick<RecordedResponse, 'body' | 'bodyBytes' | 'truncated' | 'json' | 'sha256' | 'elided'>;

/**
 * A body received in one chunk of up to this many bytes is looked up by its bytes before it is hashed: polling
 * answers the same few hundred bytes thousands of times, and a map lookup costs less than a sha256 each time.
 */
const LOOK_UP_BY_BYTES = 4 * 1024;
/** Most bodies the lookup by bytes holds; past it, it starts again (the store by hash still holds every body). */
const BY_BYTES_LIMIT = 1024;

const EMPTY = Buffer.alloc(0);

/**
 * How far a cut may move to fall between words. A body cut in the middle of a token (an echoed API key, a
 * bearer token) would keep a piece of it that no secret mask recognises as one; cut at the nearest space,
 * quote or bracket instead, a token is kept whole (and masked as any other) or not at all.
 */
const WORD_WINDOW = 2 * 1024;

/** The first bytes of a long body that its kept head is cut from: the head and the window its cut may move in. */
export const HEAD_SPAN_BYTES = HEAD_BYTES + WORD_WINDOW;
/**
 * The last bytes of a long body that its kept tail is cut from: the tail, the window where the body's own end
 * moves to when it was cut at the read limit, and the window the tail's start may move in.
 */
export const TAIL_SPAN_BYTES = TAIL_BYTES + 2 * WORD_WINDOW;

/**
 * A body's bytes by position: a Buffer, or only the spans of a long body that its kept head and tail are cut
 * from ({@link HEAD_SPAN_BYTES}, {@link TAIL_SPAN_BYTES}), read nowhere else.
 */
export interface BodyBytes {
  readonly length: number;
  at(index: number): number | undefined;
  subarray(start: number, end: number): Uint8Array;
}

/** Bytes a token never holds: whitespace, quotes, and the punctuation that delimits JSON, HTML and lists. */
const BETWEEN_WORDS = new Set([0x09, 0x0a, 0x0d, 0x20, 0x22, 0x27, 0x28, 0x29, 0x2c, 0x3b, 0x3c, 0x3e, 0x5b, 0x5c, 0x5d, 0x7b, 0x7d]);

/** The last byte between words in [from, to), or -1. */
function lastBetween(bytes: BodyBytes, from: number, to: number): number {
  for (let at = to - 1; at >= Math.max(0, from); at--) if (BETWEEN_WORDS.has(bytes.at(at)!)) return at;
  return -1;
}

/** The first byte between words in [from, to), or -1. */
function firstBetween(bytes: BodyBytes, from: number, to: number): number {
  for (let at = from; at < Math.min(bytes.length, to); at++) if (BETWEEN_WORDS.has(bytes.at(at)!)) return at;
  return -1;
}

/**
 * Where a kept text that would end at `end` ends: after the last word that ends before it (the word cut is
 * dropped), else after the word it cuts (kept whole), else at `end` when no word ends within the window.
 */
export function cutBefore(bytes: BodyBytes, end: number): number {
  const before = lastBetween(bytes, end - WORD_WINDOW, end);
  if (before !== -1) return before + 1;
  const after = firstBetween(bytes, end, end + WORD_WINDOW);
  return after !== -1 ? after : end;
}

/**
 * Where a kept text that would start at `start` starts: before the word it cuts (kept whole), else after it
 * (dropped), else at `start` when no word starts within the window.
 */
export function cutAfter(bytes: BodyBytes, start: number): number {
  const before = lastBetween(bytes, start - WORD_WINDOW, start);
  if (before !== -1) return before;
  const after = firstBetween(bytes, start, start + WORD_WINDOW);
  return after !== -1 ? after : start;
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Keeps response bodies within bounded memory: a body is kept whole up to {@link KEEP_WHOLE_BYTES}, else as its
 * head and tail with its size and sha256; the same body answered again (polling repeats an answer many times)
 * is stored once and shared, parsed value included. Stored values are never changed after they are handed out.
 */
export class BodyStore {
  private readonly byHash = new Map<string, StoredBody>();
  private readonly byBytes = new Map<string, StoredBody>();

  keep(bytes: Buffer, truncated: boolean): StoredBody {
    return this.keepChunks([bytes], truncated);
  }

  /** The body received as these chunks, in order: joined only when it was not seen before. */
  keepChunks(chunks: readonly Buffer[], truncated: boolean): StoredBody {
    const only = chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : undefined;
    if (only === undefined || only.length > LOOK_UP_BY_BYTES) return this.keepHashed(chunks, truncated);
    const bytesKey = `${truncated ? 'cut' : 'whole'}:${only.toString('latin1')}`;
    const known = this.byBytes.get(bytesKey);
    if (known) return known;
    const stored = this.keepHashed(chunks, truncated);
    if (this.byBytes.size >= BY_BYTES_LIMIT) this.byBytes.clear();
    this.byBytes.set(bytesKey, stored);
    return stored;
  }

  /**
   * A body cut at the read limit that was never held whole: its sha256, its length (the limit), and the spans
   * its kept head and tail are cut from. Stored as the same body held whole would be, and shared with it.
   */
  keepCut(bytes: BodyBytes, sha256: string): StoredBody {
    const key = `cut:${sha256}`;
    const known = this.byHash.get(key);
    if (known) return known;
    const stored = longBody(bytes, true, parseBodyJson('', true), sha256);
    this.byHash.set(key, stored);
    return stored;
  }

  private keepHashed(chunks: readonly Buffer[], truncated: boolean): StoredBody {
    const hash = createHash('sha256');
    for (const chunk of chunks) hash.update(chunk);
    const sha256 = hash.digest('hex');
    const key = `${truncated ? 'cut' : 'whole'}:${sha256}`;
    const known = this.byHash.get(key);
    if (known) return known;
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    // A cut body is never parsed: a long one is not decoded whole either, only its head and tail are.
    const whole = truncated && bytes.length > KEEP_WHOLE_BYTES ? '' : decode(bytes);
    const json = parseBodyJson(whole, truncated);
    let stored: StoredBody;
    if (bytes.length <= KEEP_WHOLE_BYTES) {
      // A body cut at the read limit ends in a cut too: it is kept up to the last word that came whole.
      const end = truncated ? cutBefore(bytes, bytes.length) : bytes.length;
      stored = { body: end === bytes.length ? whole : decode(bytes.subarray(0, end)), bodyBytes: bytes.length, truncated, json, sha256 };
    } else {
      stored = longBody(bytes, truncated, json, sha256);
    }
    this.byHash.set(key, stored);
    return stored;
  }
}

/** A body longer than {@link KEEP_WHOLE_BYTES}, kept as its head and tail, cut between words. */
function longBody(bytes: BodyBytes, truncated: boolean, json: JsonParse, sha256: string): StoredBody {
  // A body cut at the read limit ends in a cut too: it is kept up to the last word that came whole.
  const end = truncated ? cutBefore(bytes, bytes.length) : bytes.length;
  const headEnd = cutBefore(bytes, HEAD_BYTES);
  const tailStart = cutAfter(bytes, end - TAIL_BYTES);
  return {
    body: `${decode(bytes.subarray(0, headEnd))}\n… ${(bytes.length - headEnd - (end - tailStart)).toLocaleString('en-US')} bytes not kept (sha256 ${sha256}) …\n${decode(bytes.subarray(tailStart, end))}`,
    bodyBytes: bytes.length,
    truncated,
    json,
    sha256,
    elided: { headBytes: headEnd, tailBytes: end - tailStart },
  };
}
