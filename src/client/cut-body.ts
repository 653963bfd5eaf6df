import { createHash, type Hash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { HEAD_SPAN_BYTES, KEEP_WHOLE_BYTES, TAIL_SPAN_BYTES, type BodyBytes } from '../transcript/body-store.js';

/**
 * Whether an answer's body is known, before it is read, to pass the read limit: its Content-Length says so,
 * it has no content coding (a coded body is cut once decoded), and its status has a body. Such a body is
 * read as a {@link CutBody} instead of being held whole up to the limit.
 */
export function passesLimit(status: number, headers: IncomingHttpHeaders, limit: number): boolean {
  if (status < 200 || status === 204 || status === 304 || limit <= KEEP_WHOLE_BYTES) return false;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  return typeof length === 'string' && /^\d+$/.test(length) && Number(length) > limit;
}

/**
 * A body read up to the limit, of which only the spans its kept head and tail are cut from are held, with the
 * sha256 of all of it: the same record as the whole body held would give, at some 26 KB a read instead of the
 * limit's worth. Copied out of the chunks, so that no socket buffer is kept alive by a view of it.
 */
export class CutBody implements BodyBytes {
  private readonly head = Buffer.allocUnsafe(HEAD_SPAN_BYTES);
  private readonly tail = Buffer.allocUnsafe(TAIL_SPAN_BYTES);
  private readonly tailFrom: number;
  private readonly hash: Hash = createHash('sha256');
  private received = 0;

  constructor(readonly length: number) {
    if (length <= HEAD_SPAN_BYTES + TAIL_SPAN_BYTES) throw new RangeError(`a cut body of ${length} bytes would keep all of it`);
    this.tailFrom = length - TAIL_SPAN_BYTES;
  }

  /** All of its bytes have come. */
  get full(): boolean {
    return this.received === this.length;
  }

  /** Takes the next bytes of the body; those past its length are dropped. */
  add(chunk: Uint8Array): void {
    const taken = chunk.subarray(0, this.length - this.received);
    this.hash.update(taken);
    const from = this.received;
    const to = from + taken.length;
    if (from < HEAD_SPAN_BYTES) this.head.set(taken.subarray(0, HEAD_SPAN_BYTES - from), from);
    if (to > this.tailFrom) {
      const skip = Math.max(0, this.tailFrom - from);
      this.tail.set(taken.subarray(skip), from + skip - this.tailFrom);
    }
    this.received = to;
  }

  /** The sha256 (hex) of the body, once it is full. */
  sha256(): string {
    if (!this.full) throw new Error(`the body has ${this.received} of its ${this.length} bytes`);
    return this.hash.digest('hex');
  }

  at(index: number): number | undefined {
    if (index < 0 || index >= this.length) return undefined;
    if (index < HEAD_SPAN_BYTES) return this.head[index];
    if (index >= this.tailFrom) return this.tail[index - this.tailFrom];
    throw new RangeError(`byte ${index} of a cut body was not kept`);
  }

  subarray(start: number, end: number): Uint8Array {
    if (end <= HEAD_SPAN_BYTES) return this.head.subarray(start, end);
    if (start >= this.tailFrom) return this.tail.subarray(start - this.tailFrom, end - this.tailFrom);
    throw new RangeError(`bytes ${start} to ${end} of a cut body were not kept`);
  }
}
