import { createHash } from 'node:crypto';
import type { RecordedResponse } from './exchange.js';
import { parseBodyJson } from './json-body.js';

/** Bodies up to this size are kept whole; a longer one keeps its head and tail (judges still get its parsed value). */
export const KEEP_WHOLE_BYTES = 64 * 1024;
const HEAD_BYTES = 16 * 1024;
const TAIL_BYTES = 4 * 1024;

type StoredBody = Pick<RecordedResponse, 'body' | 'bodyBytes' | 'truncated' | 'json' | 'sha256' | 'elided'>;

/**
 * A body received in one chunk of up to this many bytes is looked up by its bytes before it is hashed: polling
 * answers the same few hundred bytes thousands of times, and a map lookup costs less than a sha256 each time.
 */
const LOOK_UP_BY_BYTES = 4 * 1024;
/** Most bodies the lookup by bytes holds; past it, it starts again (the store by hash still holds every body). */
const BY_BYTES_LIMIT = 1024;

const EMPTY = Buffer.alloc(0);

function decode(bytes: Buffer): string {
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

  private keepHashed(chunks: readonly Buffer[], truncated: boolean): StoredBody {
    const hash = createHash('sha256');
    for (const chunk of chunks) hash.update(chunk);
    const sha256 = hash.digest('hex');
    const key = `${truncated ? 'cut' : 'whole'}:${sha256}`;
    const known = this.byHash.get(key);
    if (known) return known;
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const whole = decode(bytes);
    const json = parseBodyJson(whole, truncated);
    const stored: StoredBody =
      bytes.length <= KEEP_WHOLE_BYTES
        ? { body: whole, bodyBytes: bytes.length, truncated, json, sha256 }
        : {
            body: `${decode(bytes.subarray(0, HEAD_BYTES))}\n… ${(bytes.length - HEAD_BYTES - TAIL_BYTES).toLocaleString('en-US')} bytes not kept (sha256 ${sha256}) …\n${decode(bytes.subarray(bytes.length - TAIL_BYTES))}`,
            bodyBytes: bytes.length,
            truncated,
            json,
            sha256,
            elided: { headBytes: HEAD_BYTES, tailBytes: TAIL_BYTES },
          };
    this.byHash.set(key, stored);
    return stored;
  }
}
