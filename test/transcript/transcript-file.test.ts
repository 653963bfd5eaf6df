import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscriptFile, transcriptFileText, writeTranscriptFile } from '../../src/transcript/transcript-file.js';
import { IN_PROGRESS, context, OP_ID, TranscriptBuilder } from '../support/transcript-builder.js';

describe('writeTranscriptFile', () => {
  it('streams the text transcriptFileText makes, and reads back the same exchanges', async () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 20, error: { kind: 'timeout', message: 'no complete answer within 10 ms' } });
    b.transcript.note({ type: 'restart-skipped', at: 30, message: 'no work in progress' });
    const dir = await mkdtemp(join(tmpdir(), 'pc-transcript-'));
    try {
      const path = join(dir, 'nested', 'transcript.json');
      await writeTranscriptFile(path, b.transcript.exchanges, b.transcript.events, context());
      expect(await readFile(path, 'utf8')).toBe(transcriptFileText(b.transcript.exchanges, b.transcript.events, context()));
      const again = await readTranscriptFile(path);
      expect(again.transcript.exchanges).toEqual(b.transcript.exchanges);
      expect(again.transcript.events).toEqual(b.transcript.events);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
