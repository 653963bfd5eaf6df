import { describe, expect, it } from 'vitest';
import { answerJson, answerPrompt, answerStatus, RULES } from '../../src/rules/catalog/answers.js';
import type { Judgement } from '../../src/rules/types.js';
import { OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['answer.status', 'MUST'],
  ['answer.json', 'MUST'],
  ['answer.prompt', 'SHOULD'],
]);

const OTHER_ID = '0b9e1f7c-2d4a-4c8e-b1f3-7a6d5e4c3b2a';

function brokenParts(judgement: Judgement): { seqs: number[][]; notes: string[]; count?: number } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { seqs: judgement.evidence.map((e) => e.exchanges), notes: judgement.evidence.map((e) => e.note), count: judgement.count };
}

describe('answer.status', () => {
  it('holds when every plan and apply answers 200 or 202', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.badInput('plan', { status: 400, body: { error: 'bad' } });
    const j = answerStatus.judge(b.transcript, context());
    expect(j).toEqual({ outcome: 'held', message: '2 answers to plan and apply (not the burst\'s calls, repeats, calls refused under load or calls around the restart), all 200 or 202' });
  });

  it('is broken by another status and by no answer at all', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('apply', { status: 409, body: { error: 'busy' } });
    b.post('apply', { took: 10_000, error: { kind: 'timeout', message: 'headers timeout' } });
    b.post('plan', { error: { kind: 'refused', message: 'ECONNREFUSED' } });
    const { seqs, notes, count } = brokenParts(answerStatus.judge(b.transcript, context()));
    expect(seqs).toEqual([[2], [3], [4]]);
    expect(notes[0]).toBe('POST /apply answered 409');
    expect(notes[1]).toBe('POST /apply got no answer: timeout after 10.0s');
    expect(notes[2]).toMatch(/connection refused/);
    expect(count).toBe(3);
  });

  it('is not exercised without plan or apply', () => {
    const b = new TranscriptBuilder();
    b.badInput('plan', { status: 500 });
    expect(answerStatus.judge(b.transcript, context()).outcome).toBe('not-exercised');
  });
});

describe('answer.json', () => {
  it('holds for JSON objects with a JSON content type, charset and +json included', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal(), contentType: 'application/json; charset=utf-8' });
    b.post('apply', { status: 202, body: { operationId: OP_ID }, contentType: 'application/vnd.op+json' });
    b.post('apply', { status: 409, body: 'busy', contentType: 'text/plain' });
    expect(answerJson.judge(b.transcript, context()).outcome).toBe('held');
  });

  it('says what is wrong: content type, parse error, array, truncation', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal(), contentType: 'text/plain' });
    b.post('plan', { body: '{"outcome":', contentType: 'application/json' });
    b.post('apply', { status: 202, body: [{ operationId: OP_ID }] });
    const cut = b.post('apply', { status: 202, body: { operationId: OTHER_ID } });
    cut.response!.truncated = true;
    b.post('plan', { body: shopDbFinal(), contentType: null });
    const { seqs, notes } = brokenParts(answerJson.judge(b.transcript, context()));
    expect(seqs).toEqual([[1], [2], [3], [4], [5]]);
    expect(notes[0]).toBe('POST /plan answered 200: content type text/plain is not a JSON type');
    expect(notes[1]).toMatch(/^POST \/plan answered 200: the body is not JSON: /);
    expect(notes[2]).toBe('POST /apply answered 202: the body is an array, not a JSON object');
    expect(notes[3]).toMatch(/truncated body/);
    expect(notes[4]).toMatch(/no content type/);
  });

  it('is not exercised when nothing answered 200 or 202', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 500, body: 'oops', contentType: 'text/html' });
    expect(answerJson.judge(b.transcript, context()).outcome).toBe('not-exercised');
  });
});

describe('answer.prompt', () => {
  it('holds when every answer came within the timeout, naming the slowest', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { took: 1200, body: shopDbFinal() });
    b.post('apply', { took: 30, status: 202, body: { operationId: OP_ID } });
    const j = answerPrompt.judge(b.transcript, context({ answerTimeoutMs: 2000 }));
    expect(j.outcome).toBe('held');
    expect(j.message).toContain('the slowest took 1.2s (limit 2.0s)');
  });

  it('is broken by a slow answer and by a timeout', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { took: 100, body: shopDbFinal() });
    b.post('apply', { took: 14_200, body: shopDbFinal() });
    b.post('apply', { took: 10_000, error: { kind: 'timeout', message: 'headers timeout' } });
    b.post('plan', { error: { kind: 'refused', message: 'ECONNREFUSED' } });
    const j = answerPrompt.judge(b.transcript, context());
    const { seqs, notes } = brokenParts(j);
    expect(seqs).toEqual([[2], [3]]);
    expect(notes[0]).toBe('POST /apply answered after 14.2s (limit 10.0s)');
    expect(notes[1]).toMatch(/timeout after 10.0s/);
    expect(j.message).toContain('the slowest took 14.2s');
  });

  it('is not exercised when no submission got an answer', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { error: { kind: 'refused', message: 'ECONNREFUSED' } });
    expect(answerPrompt.judge(b.transcript, context()).outcome).toBe('not-exercised');
  });
});
