import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { verifyTranscriptFile } from '../../src/observe/verify-transcript.js';
import { verifyTranscript } from '../../src/runner/verify.js';
import {
  readTranscriptFile,
  readTranscriptPieces,
  STREAMED_TRANSCRIPT_FORMAT,
  streamedLine,
  transcriptFileText,
  type TranscriptPiece,
} from '../../src/transcript/transcript-file.js';
import { withoutParsedBody } from '../../src/transcript/stored-response.js';
import { TranscriptScanner, TranscriptSyntaxError, type ScannedValue } from '../../src/transcript/transcript-scanner.js';
import { context, IN_PROGRESS, OP_ID, T0, TranscriptBuilder } from '../support/transcript-builder.js';

const DIR = mkdtempSync(join(tmpdir(), 'pc-transcript-reading-'));

function file(name: string, text: string): string {
  const path = join(DIR, name);
  writeFileSync(path, text);
  return path;
}

function built(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
  b.read(OP_ID, { at: 10, body: IN_PROGRESS });
  b.read(OP_ID, { at: 20, error: { kind: 'timeout', message: 'no complete answer within 10 ms' } });
  b.transcript.note({ type: 'restart-skipped', at: T0 + 30, message: 'no work in progress' });
  return b;
}

/** The scanner fed the text in pieces of `size` characters: what it completes must not depend on where the pieces break. */
function scanned(text: string, size: number): ScannedValue[] {
  const scanner = new TranscriptScanner();
  const values: ScannedValue[] = [];
  for (let at = 0; at < text.length; at += size) values.push(...scanner.push(text.slice(at, at + size)));
  values.push(...scanner.end());
  return values;
}

/** A streamed transcript of the builder's exchanges, as an observer writes one. */
function streamedText(b: TranscriptBuilder, end = true): string {
  const header = streamedLine({ format: STREAMED_TRANSCRIPT_FORMAT, source: 'proxy', url: 'http://127.0.0.1:8080', changesPointer: '/changes', context: { ...context(), changeSets: undefined } as never });
  return header + b.transcript.exchanges.map((exchange) => streamedLine({ exchange: withoutParsedBody(exchange) })).join('') + (end ? streamedLine({ end: T0 + 40 }) : '');
}

async function rejection(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('a transcript file read as a stream', () => {
  it('gives the same values however its text is cut into pieces, written whole, pretty-printed or line by line', () => {
    const b = built();
    const whole = transcriptFileText(b.transcript.exchanges, b.transcript.events, context());
    const pretty = JSON.stringify(JSON.parse(whole), null, 2);
    const expected = scanned(whole, whole.length);
    expect(expected.filter((value) => value.at === 'item')).toHaveLength(4);
    for (const size of [1, 7, 64]) {
      expect(scanned(whole, size)).toEqual(expected);
      expect(scanned(pretty, size).map((value) => ('value' in value ? value.value : value.at))).toEqual(expected.map((value) => ('value' in value ? value.value : value.at)));
    }
    const lines = streamedText(b);
    const records = scanned(lines, 5).filter((value) => value.at === 'record');
    expect(records.map((value) => (value as { line: number }).line)).toEqual([2, 3, 4, 5]);
  });

  it('reads back the exchanges and events of a whole transcript, and of one written line by line', async () => {
    const b = built();
    const again = await readTranscriptFile(file('whole.json', transcriptFileText(b.transcript.exchanges, b.transcript.events, context())));
    expect(again.transcript.exchanges).toEqual(b.transcript.exchanges);
    expect(again.transcript.events).toEqual(b.transcript.events);
    const pieces: TranscriptPiece[] = [];
    for await (const piece of readTranscriptPieces(file('lines.ndjson', streamedText(b)))) pieces.push(piece);
    expect(pieces.map((piece) => piece.kind)).toEqual(['head', 'exchange', 'exchange', 'exchange', 'end']);
    expect(pieces.filter((piece) => piece.kind === 'exchange').map((piece) => piece.exchange)).toEqual(b.transcript.exchanges);
  });

  it('reads a line longer than the pieces it is read in (a body of several MB)', async () => {
    const b = new TranscriptBuilder();
    const big = 'x'.repeat(3 * 1024 * 1024);
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 10, body: { ...IN_PROGRESS, description: big } });
    const pieces: TranscriptPiece[] = [];
    for await (const piece of readTranscriptPieces(file('huge.ndjson', streamedText(b)))) pieces.push(piece);
    const read = pieces.find((piece) => piece.kind === 'exchange' && piece.exchange.tag === 'poll');
    expect(read?.kind === 'exchange' && read.exchange.response?.body.length).toBe(b.transcript.exchanges[1]!.response!.body.length);
    expect(read?.kind === 'exchange' && (read.exchange.response?.json as { ok: true; value: { description: string } }).value.description).toBe(big);
  });

  it('says where a line stops being JSON, by line and column, without its text', () => {
    const text = `${streamedText(built(), false)}{"sweep": 12x4}\n`;
    expect(() => scanned(text, 3)).toThrow(TranscriptSyntaxError);
    expect(() => scanned(text, 3)).toThrow(/^Expected .* at line 5, column 13$/);
  });

  it('refuses a truncated last line, an empty file and text after a whole transcript, as config errors that say where and why', async () => {
    const text = streamedText(built());
    const cut = file('cut.ndjson', text.slice(0, text.length - 9));
    expect((await rejection(verifyTranscriptFile(cut, {}))).message).toBe(
      `transcript: cannot read ${cut}: it is not JSON: the text ends inside the value that begins at line 5, column 1: it is cut short (the writer may have stopped while writing it)`,
    );
    for (const empty of [file('empty.json', ''), file('blank.json', '\n  \n')]) {
      expect((await rejection(verifyTranscriptFile(empty, {}))).message).toBe(`transcript: ${empty}: it is empty, not a transcript file of this kit`);
      expect((await rejection(verifyTranscript(empty, {}))).message).toBe(`transcript: ${empty}: it is empty, not a transcript file of this kit`);
    }
    const b = built();
    const twice = file('twice.json', transcriptFileText(b.transcript.exchanges, b.transcript.events, context()).repeat(2));
    expect((await rejection(verifyTranscript(twice, {}))).message).toBe(`transcript: ${twice}: unexpected text after the transcript at line 2, column 1`);
    const whole = file('whole-cut.json', transcriptFileText(b.transcript.exchanges, b.transcript.events, context()).slice(0, 200));
    expect((await rejection(verifyTranscript(whole, {}))).message).toMatch(/it is not JSON: the text ends inside the value that begins at line 1, column \d+: it is cut short/);
    // A record that is JSON but none of the format's.
    const odd = file('odd.ndjson', `${text}{"what": 1}\n`);
    expect((await rejection(verifyTranscriptFile(odd, {}))).message).toBe(`transcript: ${odd}: what begins at line 6, column 1 is no record of a streamed transcript`);
  });

  it('judges a whole transcript with verify FILE as before, and says a streamed one is verify\'s to judge as the observer did', async () => {
    const b = built();
    const whole = file('judged.json', transcriptFileText(b.transcript.exchanges, b.transcript.events, context()));
    const before = await verifyTranscript(whole, {});
    const now = await verifyTranscriptFile(whole, {});
    expect(now.rules).toEqual(before.rules);
    expect(now.observation).toBeUndefined();
    const lines = file('streamed.ndjson', streamedText(b));
    expect((await rejection(verifyTranscript(lines, {}))).message).toContain('is an observation\'s transcript, written as the traffic flowed');
    const streamed = await verifyTranscriptFile(lines, {});
    expect(streamed.observation?.source).toBe('proxy');
    expect(streamed.observation?.traffic.exchanges).toBe(3);
  });
});
