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
