import { describe, expect, it } from 'vitest';
import { redactExchanges } from '../../src/report/redact-transcript.js';
import { numberedMask, redactJson } from '../../src/report/redact.js';
import { judgeRules } from '../../src/rules/index.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { OP_ID, TranscriptBuilder, context, shopDbFinal, IN_PROGRESS } from '../support/transcript-builder.js';

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
