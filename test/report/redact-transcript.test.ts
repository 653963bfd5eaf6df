import { describe, expect, it } from 'vitest';
import { redactExchanges } from '../../src/report/redact-transcript.js';
import { numberedMask, redactJson } from '../../src/core/redact.js';
import { judgeRules } from '../../src/rules/index.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { OP_ID, TranscriptBuilder, context, shopDbFinal, IN_PROGRESS } from '../support/transcript-builder.js';
import { SecretMask } from '../../src/report/secret-mask.js';
import { transcriptText } from '../../src/report/write-transcript.js';
import { parseTranscriptFile } from '../../src/transcript/transcript-file.js';
import { sampleOutcome } from './outcome-fixture.js';

describe('redacting a transcript before it is written', () => {
  function secretRun(): TranscriptBuilder {
    const b = new TranscriptBuilder();
    const accepted = b.post('apply', { status: 202, body: { operationId: OP_ID } });
    accepted.request.headers.authorization = 'Bearer s3cret';
    b.read(OP_ID, { body: IN_PROGRESS });
    const final = shopDbFinal();
    (final.results as Array<Record<string, unknown>>)[0]!.outputs = { password: 'hunter2', url: 'x' };
    b.read(OP_ID, { body: final });
    b.read(OP_ID, { tag: 'read-after-final', body: final });
    return b;
  }

  it('hides credential headers and secret-looking values', () => {
    const text = JSON.stringify(redactExchanges(secretRun().transcript.exchanges));
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('[redacted]');
  });

  it('redacts headers shared by many exchanges once, into one copy they share, and each other headers object apart', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    const shared = { accept: 'application/json', authorization: 'Bearer s3cret' };
    const reads = [b.read(OP_ID, { body: IN_PROGRESS }), b.read(OP_ID, { body: IN_PROGRESS }), b.read(OP_ID, { body: IN_PROGRESS })];
    reads[0]!.request.headers = shared;
    reads[1]!.request.headers = shared;
    reads[2]!.request.headers = { accept: 'application/json', 'x-api-key': 'k3y-other' };
    const [, first, second, third] = redactExchanges(b.transcript.exchanges);
    expect(first!.request.headers).toEqual({ accept: 'application/json', authorization: '[redacted]' });
    expect(second!.request.headers).toBe(first!.request.headers);
    expect(third!.request.headers).toEqual({ accept: 'application/json', 'x-api-key': '[redacted]' });
    expect(shared.authorization).toBe('Bearer s3cret');
  });

  it('leaves every verdict as it was', () => {
    const original = secretRun().transcript;
    const redacted = new Transcript(redactExchanges(original.exchanges), original.events);
    const statuses = (t: Transcript): string[] => judgeRules(t, context()).map((r) => `${r.id}:${r.status}`);
    expect(statuses(redacted)).toEqual(statuses(original));
  });
});

describe('numbered masks in a written transcript', () => {
  it('give each distinct secret its own placeholder, so a secret that changed still differs, and hide every value', () => {
    const mask = numberedMask();
    const first = redactJson({ outputs: { password: 'vault://a/1', url: 'postgres://app:s3cret@db/shop' } }, mask);
    const again = redactJson({ outputs: { password: 'vault://a/1' } }, mask);
    const rotated = redactJson({ outputs: { password: 'vault://a/2' } }, mask);
    expect(first).toEqual({ outputs: { password: '[redacted #1]', url: 'postgres://app:[redacted #2]@db/shop' } });
    expect(again).toEqual({ outputs: { password: '[redacted #1]' } });
    expect(rotated).toEqual({ outputs: { password: '[redacted #3]' } });
    expect(JSON.stringify([first, again, rotated])).not.toMatch(/vault:|s3cret/);
  });
});

describe('a transcript file written through the run\'s secret mask', () => {
  it('hides a header echoed into notes and keeps rotating secrets distinct, so it judges again the same', () => {
    const b = new TranscriptBuilder();
    const header = 'Bearer echo-token-4411';
    const accepted = b.post('apply', { status: 202, body: { operationId: OP_ID } });
    accepted.request.headers.authorization = header;
    b.read(OP_ID, { body: { ...IN_PROGRESS, description: `working for ${header}` } });
    const withPassword = (password: string): Record<string, unknown> => {
      const final = shopDbFinal();
      (final.results as Array<Record<string, unknown>>)[0]!.outputs = { password, note: `rotated to ${password}` };
      return final;
    };
    b.read(OP_ID, { body: withPassword('vault://first-rotation') });
    b.read(OP_ID, { tag: 'read-after-final', body: withPassword('vault://second-rotation') });
    const outcome = { ...sampleOutcome(), transcript: b.transcript, context: context() };
    const mask = new SecretMask().addHeader('authorization', header).learnExchanges(b.transcript.exchanges);

    const text = transcriptText(outcome, mask);
    expect(text).not.toMatch(/echo-token-4411|rotation/);
    const again = parseTranscriptFile(text, 'transcript.json');
    const notes = again.transcript.exchanges.slice(2).map((exchange) => JSON.stringify(exchange.response!.json));
    // The two rotations are two placeholders, each the same in the output and in the note that repeats it.
    const [first, second] = notes.map((note) => [...note.matchAll(/\[redacted #\d+\]/g)].map((m) => m[0]));
    expect(first).toHaveLength(2);
    expect(new Set(first).size).toBe(1);
    expect(new Set(second).size).toBe(1);
    expect(first![0]).not.toBe(second![0]);
    const statuses = (t: Transcript): string[] => judgeRules(t, context()).map((r) => `${r.id}:${r.status}`);
    expect(statuses(again.transcript)).toEqual(statuses(b.transcript));
  });
});
