import { describe, expect, it } from 'vitest';
import { CutBody, passesLimit } from '../../src/client/cut-body.js';
import { BodyStore } from '../../src/transcript/body-store.js';

const LIMIT = 256 * 1024;

/** A body longer than the limit: JSON-like text with words, spaces and multi-byte characters throughout. */
function longBody(seed: number): Buffer {
  const words = ['alpha', 'béta', '"gamma"', 'δέλτα', '{x}', 'tok-3f9a1c7e5b2d4f6a8c0e', '[1,2]', 'x'.repeat(3000)];
  const parts: string[] = ['{"outcome":"in_progress","description":"'];
  for (let i = 0; Buffer.byteLength(parts.join(' ')) < LIMIT + 50_000; i++) parts.push(words[(i * 7 + seed) % words.length]!);
  return Buffer.from(parts.join(' '));
}

/** Feeds `bytes` to a cut body in chunks of the given sizes, over and over. */
function fed(bytes: Buffer, sizes: number[]): CutBody {
  const cut = new CutBody(LIMIT);
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    cut.add(bytes.subarray(at, at + size));
    at += size;
  }
  return cut;
}

describe('a body known to pass the read limit', () => {
  it('is stored as the same record as the body held whole up to the limit, however its chunks fall', () => {
    for (const seed of [0, 1, 2, 5]) {
      const bytes = longBody(seed);
      const whole = new BodyStore().keepChunks([bytes.subarray(0, LIMIT)], true);
      for (const sizes of [[bytes.length], [1024], [65_536, 7, 333], [LIMIT - 1, 1, 5]]) {
        const cut = fed(bytes, sizes);
        expect(cut.full).toBe(true);
        expect(new BodyStore().keepCut(cut, cut.sha256())).toEqual(whole);
      }
    }
  });

  it('is shared with the same body stored whole before, and keeps no byte between its head and tail', () => {
    const bytes = longBody(3);
    const store = new BodyStore();
    const whole = store.keepChunks([bytes.subarray(0, LIMIT)], true);
    const cut = fed(bytes, [4096]);
    expect(store.keepCut(cut, cut.sha256())).toBe(whole);
    expect(cut.at(0)).toBe(bytes[0]);
    expect(cut.at(LIMIT - 1)).toBe(bytes[LIMIT - 1]);
    expect(() => cut.at(LIMIT / 2)).toThrow(RangeError);
    expect(cut.at(LIMIT)).toBeUndefined();
  });

  it('has no sha256 before all its bytes came', () => {
    const cut = new CutBody(LIMIT);
    cut.add(Buffer.alloc(1000));
    expect(cut.full).toBe(false);
    expect(() => cut.sha256()).toThrow();
  });

  it('is one whose Content-Length passes the limit, in an answer with a body and no coding', () => {
    expect(passesLimit(200, { 'content-length': String(LIMIT + 1) }, LIMIT)).toBe(true);
    expect(passesLimit(200, { 'content-length': String(LIMIT) }, LIMIT)).toBe(false);
    expect(passesLimit(200, {}, LIMIT)).toBe(false);
    expect(passesLimit(200, { 'content-length': 'lots' }, LIMIT)).toBe(false);
    expect(passesLimit(200, { 'content-length': '9999999', 'content-encoding': 'gzip' }, LIMIT)).toBe(false);
    expect(passesLimit(304, { 'content-length': '9999999' }, LIMIT)).toBe(false);
    expect(passesLimit(204, { 'content-length': '9999999' }, LIMIT)).toBe(false);
    // A limit the kept head and tail would fill is read whole.
    expect(passesLimit(200, { 'content-length': '9999999' }, 64 * 1024)).toBe(false);
  });
});
