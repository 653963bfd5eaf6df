import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutputError } from '../../src/errors.js';
import { TranscriptStream, type TranscriptSecrets } from '../../src/observe/transcript-stream.js';
import { verifyTranscriptFile } from '../../src/observe/verify-transcript.js';
import { readTranscriptPieces, type TranscriptPiece } from '../../src/transcript/transcript-file.js';
import { context, IN_PROGRESS, OP_ID, T0, TranscriptBuilder } from '../support/transcript-builder.js';

const DIR = mkdtempSync(join(tmpdir(), 'pc-transcript-stream-'));
const { changeSets: _none, ...judging } = context();
const HEADER = { source: 'proxy' as const, url: 'http://127.0.0.1:8080', changesPointer: '/changes', context: judging };
const SECRETS: TranscriptSecrets = { upstream: 'http://user:upstream-password@127.0.0.1:8080', secrets: ['configured-secret-value'], showSecrets: false };

/** An operation accepted and read twice, the reads carrying a credential header and a secret in the answer. */
function operation(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  const headers = { authorization: 'Bearer header-secret-token', 'x-note': 'configured-secret-value' };
  const changeSet = JSON.stringify({ changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] });
  b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID }, headers, requestBody: changeSet });
  b.read(OP_ID, { at: 10, body: IN_PROGRESS, headers });
  b.read(OP_ID, { at: 20, body: { outcome: 'succeeded', description: 'done', results: [], outputs: { password: 'answer-password-1' } }, headers });
  return b;
}

async function pieces(path: string): Promise<TranscriptPiece[]> {
  const all: TranscriptPiece[] = [];
  for await (const piece of readTranscriptPieces(path)) all.push(piece);
  return all;
}

describe('the transcript an observer appends to', () => {
  it('masks every line as the other outputs are masked, one placeholder per distinct secret, and is judged again by verify FILE', async () => {
    const path = join(DIR, 'masked.ndjson');
    const failures: OutputError[] = [];
    const stream = new TranscriptStream(path, HEADER, SECRETS, (error) => failures.push(error));
    const b = operation();
    for (const exchange of b.transcript.exchanges) stream.exchange(exchange);
    stream.other(true);
    await stream.close(T0 + 30);
    expect(failures).toEqual([]);
    expect(stream.problem()).toBeUndefined();
    const text = readFileSync(path, 'utf8');
    for (const secret of ['header-secret-token', 'configured-secret-value', 'answer-password-1', 'upstream-password']) expect(text).not.toContain(secret);
    // The same secret, the same placeholder, on every line it appears in.
    const placeholders = text.match(/\[redacted #\d+\]/g) ?? [];
    expect(new Set(placeholders).size).toBeLessThan(placeholders.length);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe(`{"end":${T0 + 30}}`);
    const judged = await verifyTranscriptFile(path, {});
    expect(judged.observation?.traffic.operations.ended.final).toBe(1);
    expect(judged.observation?.traffic.otherRequests).toBe(1);
    expect(judged.rules.find((rule) => rule.id === 'operation.in-progress-results-empty')?.status).toBe('pass');
  });

  it('writes the latest deadline check before the record that follows it, and none that nothing follows', async () => {
    const path = join(DIR, 'sweeps.ndjson');
    const stream = new TranscriptStream(path, HEADER, { ...SECRETS, showSecrets: true }, () => undefined);
    const [post, read] = operation().transcript.exchanges;
    stream.sweep(T0 + 1);
    stream.sweep(T0 + 2);
    stream.exchange(post!);
    stream.exchange(read!);
    stream.sweep(T0 + 3);
    stream.other(false);
    stream.sweep(T0 + 4);
    await stream.close(T0 + 5);
    expect((await pieces(path)).map((piece) => (piece.kind === 'sweep' || piece.kind === 'end' ? `${piece.kind} ${piece.at - T0}` : piece.kind))).toEqual([
      'head', 'sweep 2', 'exchange', 'exchange', 'sweep 3', 'other', 'end 5',
    ]);
  });

  it('drops and counts lines past its bound when the disk is slower than the traffic, and marks each gap', async () => {
    const path = join(DIR, 'dropped.ndjson');
    // A bound of a few lines, and every line made before the file is even open: most cannot wait.
    const stream = new TranscriptStream(path, HEADER, { ...SECRETS, showSecrets: true }, () => undefined, 4000);
    const b = operation();
    for (let i = 0; i < 30; i++) for (const exchange of b.transcript.exchanges) stream.exchange(exchange);
    await stream.close(T0 + 30);
    const read = await pieces(path);
    const kept = read.filter((piece) => piece.kind === 'exchange').length;
    const dropped = read.filter((piece) => piece.kind === 'dropped').reduce((sum, piece) => sum + (piece.kind === 'dropped' ? piece.count : 0), 0);
    expect(kept).toBeGreaterThan(0);
    expect(kept + dropped).toBe(90);
    expect(read.at(-1)).toEqual({ kind: 'end', at: T0 + 30 });
    expect(stream.problem()).toBe(`--transcript ${path}: ${dropped} lines were not written because the disk was slower than the traffic (each gap is marked in the file)`);
    const judged = await verifyTranscriptFile(path, {});
    expect(judged.conclusions).toContain(`${dropped} lines were not written while observing (the disk was slower than the traffic): what they held is not judged here`);
  });

  it('a full disk is told once, never thrown, and the stream goes on taking lines', async () => {
    const failures: OutputError[] = [];
    const stream = new TranscriptStream('/dev/full', HEADER, SECRETS, (error) => failures.push(error));
    const b = operation();
    for (const exchange of b.transcript.exchanges) stream.exchange(exchange);
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const exchange of b.transcript.exchanges) stream.exchange(exchange);
    stream.sweep(T0 + 25);
    await stream.close(T0 + 30);
    expect(failures.map((failure) => [failure.code, failure.message])).toEqual([['KIT_OUTPUT', '--transcript /dev/full: cannot write it: no space left on the device (ENOSPC)']]);
    expect(stream.problem()).toBe('--transcript /dev/full: cannot write it: no space left on the device (ENOSPC): it holds what was written before; the observation went on');
  });

  it('a disk that does not take the last lines does not hold the end of the observation', async () => {
    // A pipe no one reads: opening it for writing waits until someone does.
    const fifo = join(DIR, 'stalled.fifo');
    execFileSync('mkfifo', [fifo]);
    const failures: OutputError[] = [];
    const stream = new TranscriptStream(fifo, HEADER, SECRETS, (error) => failures.push(error));
    stream.exchange(operation().transcript.exchanges[0]!);
    await stream.close(T0 + 30, 50);
    expect(failures.map((failure) => failure.message)).toEqual([`--transcript ${fifo}: cannot write it: the disk did not take the last lines within 0.05 s`]);
    expect(stream.problem()).toContain('it holds what was written before');
    // A reader at last: the open that waited ends, and nothing is left waiting.
    closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
  });

  it('a transcript without its end (a killed observer) is judged on what was written, and says so', async () => {
    const path = join(DIR, 'killed.ndjson');
    const stream = new TranscriptStream(path, HEADER, SECRETS, () => undefined);
    const b = operation();
    stream.exchange(b.transcript.exchanges[0]!);
    stream.exchange(b.transcript.exchanges[1]!);
    await stream.close(T0 + 30);
    const text = readFileSync(path, 'utf8');
    const killed = join(DIR, 'killed-cut.ndjson');
    // As the file stood before the end was written.
    writeFileSync(killed, text.slice(0, text.lastIndexOf('{"end"')));
    const judged = await verifyTranscriptFile(killed, {});
    expect(judged.conclusions).toContain('the transcript has no end: the observer was stopped before it could write one; operations still open were judged on what was written');
    expect(judged.observation?.traffic.operations.ended.aborted).toBe(1);
  });
});
