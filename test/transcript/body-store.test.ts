import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BodyStore, KEEP_WHOLE_BYTES } from '../../src/transcript/body-store.js';
import { readTranscriptFile, writeTranscriptFile } from '../../src/transcript/transcript-file.js';
import { context, TranscriptBuilder } from '../support/transcript-builder.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('the body store', () => {
  it('keeps a small body whole, parsed, with its hash', () => {
    const text = JSON.stringify({ outcome: 'in_progress', description: 'copying', results: [] });
    const kept = new BodyStore().keep(bytes(text), false);
    expect(kept.body).toBe(text);
    expect(kept.bodyBytes).toBe(Buffer.byteLength(text));
    expect(kept.json).toEqual({ ok: true, value: { outcome: 'in_progress', description: 'copying', results: [] } });
    expect(kept.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(kept.elided).toBeUndefined();
  });

  it('stores a body answered again once, and shares it', () => {
    const store = new BodyStore();
    const first = store.keep(bytes('{"outcome":"in_progress","description":"x","results":[]}'), false);
    const again = store.keep(bytes('{"outcome":"in_progress","description":"x","results":[]}'), false);
    expect(again).toBe(first);
    expect(store.keep(bytes('{"outcome":"succeeded","description":"x","results":[]}'), false)).not.toBe(first);
  });

  it('still shares a small body after thousands of others, and keeps a cut body apart from a whole one', () => {
    const store = new BodyStore();
    const first = store.keep(bytes('{"outcome":"in_progress","description":"first","results":[]}'), false);
    for (let i = 0; i < 3000; i++) store.keep(bytes(`{"outcome":"in_progress","description":"${i}","results":[]}`), false);
    expect(store.keep(bytes('{"outcome":"in_progress","description":"first","results":[]}'), false)).toBe(first);
    const cut = store.keep(bytes('{"outcome":"in_progress","description":"first","results":[]}'), true);
    expect(cut).not.toBe(first);
    expect(cut.truncated).toBe(true);
    expect(store.keepChunks([bytes('{"outcome":'), bytes('"in_progress","description":"first","results":[]}')], false)).toBe(first);
  });

  it('keeps only the head and tail of a long body, yet parses all of it', () => {
    const results = Array.from({ length: 3000 }, (_, i) => ({ id: `change-${i}`, environment: 'test', outcome: 'succeeded', description: 'done' }));
    const text = JSON.stringify({ outcome: 'succeeded', description: 'all done', results });
    expect(Buffer.byteLength(text)).toBeGreaterThan(KEEP_WHOLE_BYTES * 2);
    const kept = new BodyStore().keep(bytes(text), false);
    expect(kept.body.length).toBeLessThan(24 * 1024);
    expect(kept.body.startsWith('{"outcome":"succeeded"')).toBe(true);
    expect(kept.body.endsWith('"description":"done"}]}')).toBe(true);
    expect(kept.body).toContain(`bytes not kept (sha256 ${createHash('sha256').update(text).digest('hex')})`);
    expect(kept.bodyBytes).toBe(Buffer.byteLength(text));
    expect(kept.elided).toBeDefined();
    expect(kept.json.ok && (kept.json.value as { results: unknown[] }).results).toHaveLength(3000);
  });

  it('never parses a body cut at the read limit', () => {
    const kept = new BodyStore().keep(bytes('{"outcome":"succ'), true);
    expect(kept.truncated).toBe(true);
    expect(kept.json.ok).toBe(false);
  });

  it('writes the parsed value of a long body into a transcript file, so that it is judged the same offline', async () => {
    const big = { outcome: 'succeeded', description: 'done', results: Array.from({ length: 2000 }, (_, i) => ({ id: `c${i}`, environment: 'test', outcome: 'succeeded', description: 'ok' })) };
    const b = new TranscriptBuilder();
    const read = b.read('6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f', { at: 10, status: 200, body: big });
    const kept = new BodyStore().keep(bytes(JSON.stringify(big)), false);
    const transcript = b.transcript;
    const exchange = transcript.bySeq(read.seq)!;
    Object.assign(exchange.response!, kept);
    const file = join(mkdtempSync(join(tmpdir(), 'pc-body-')), 'transcript.json');
    await writeTranscriptFile(file, transcript.exchanges, transcript.events, context());
    const again = await readTranscriptFile(file);
    expect(again.transcript.bySeq(read.seq)!.response!.json).toEqual({ ok: true, value: big });
  });
});

describe('the body store, where it cuts a body', () => {
  const token = 'tok-3f9a1c7e5b2d4f6a8c0e1b3d';
  const key = 'key-8b1d3f5a7c9e0b2d4f6a8c1e';
  const piecesOf = (secret: string): string[] => [secret.slice(0, 8), secret.slice(4, 12), secret.slice(-8)];
  /** A secret is kept whole, where a mask finds it, or not at all: never a piece of it. */
  const wholeOrAbsent = (body: string, secret: string): boolean => body.includes(secret) || piecesOf(secret).every((piece) => !body.includes(piece));

  it('never keeps part of a token across the kept head or tail of a long body', () => {
    const head = '{"outcome":"in_progress","results":[],"description":"';
    const before = 'p'.repeat(16 * 1024 - head.length - 10);
    const text = `${head}${before} Bearer ${token} ${'y'.repeat(80 * 1024)} ${key} ${'q'.repeat(4 * 1024 - 20)}"}`;
    const kept = new BodyStore().keep(bytes(text), false);
    expect(kept.elided).toBeDefined();
    // The token across the head's end is dropped, up to the space before it; the key across the tail's start is kept whole.
    expect(kept.body).toContain(`${before} Bearer \n… `);
    expect(piecesOf(token).some((piece) => kept.body.includes(piece))).toBe(false);
    expect(kept.body.endsWith(`…\n ${key} ${'q'.repeat(4 * 1024 - 20)}"}`)).toBe(true);
    expect(kept.elided!.headBytes + kept.elided!.tailBytes).toBeLessThan(24 * 1024);
  });

  it('keeps a token whole when no space comes after it within reach', () => {
    const text = `{"description":"${'y'.repeat(80 * 1024)} tok${key}${'q'.repeat(4 * 1024 - 10)}"}`;
    const kept = new BodyStore().keep(bytes(text), false);
    expect(wholeOrAbsent(kept.body, key)).toBe(true);
    expect(kept.body).toContain(`…\n tok${key}`);
  });

  it('keeps a body cut at the read limit up to the last word that came whole', () => {
    const kept = new BodyStore().keep(bytes(`{"outcome":"in_progress","description":"echo ${token}`), true);
    expect(kept.body).toBe('{"outcome":"in_progress","description":"echo ');
    const long = new BodyStore().keep(bytes(`{"description":"${'z '.repeat(40 * 1024)}${key}`), true);
    expect(piecesOf(key).some((piece) => long.body.includes(piece))).toBe(false);
    expect(long.body.endsWith('z z ')).toBe(true);
  });

  it('cuts where it must when no space, quote or bracket is near', () => {
    const kept = new BodyStore().keep(bytes(`"${'x'.repeat(100 * 1024)}"`), false);
    expect(kept.elided).toEqual({ headBytes: 16 * 1024, tailBytes: 4 * 1024 });
  });
});
