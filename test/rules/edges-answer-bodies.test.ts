import { describe, expect, it } from 'vitest';
import { answerJson, answerPrompt, answerStatus } from '../../src/rules/catalog/answers.js';
import type { Judgement } from '../../src/rules/types.js';
import { TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

function brokenOf(judgement: Judgement): { message: string; notes: string[] } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { message: judgement.message, notes: judgement.evidence.map((e) => e.note) };
}

describe('answer.json: bodies and messages', () => {
  it('takes a body of whitespace for an empty one', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: ' \n\t ' });
    b.post('plan', { body: '' });
    expect(brokenOf(answerJson.judge(b.transcript, context())).notes).toEqual([
      'POST /plan answered 200: the body is empty',
      'POST /plan answered 200: the body is empty',
    ]);
  });

  it('lists every problem of one answer, and counts the answers', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { contentType: 'text/plain', body: '[1]' });
    b.post('apply', { status: 202, body: { operationId: 'x' } });
    const { message, notes } = brokenOf(answerJson.judge(b.transcript, context()));
    expect(notes).toEqual(['POST /plan answered 200: content type text/plain is not a JSON type; the body is an array, not a JSON object']);
    expect(message).toBe('1 of 2 answers with status 200 or 202 (the burst\'s calls and repeats counted; not calls around the restart) broke it: 1 had neither a JSON content type nor a body that is a JSON object');
  });

  it('counts an answer with no content type over a JSON object as such', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { contentType: null, body: shopDbFinal() });
    expect(brokenOf(answerJson.judge(b.transcript, context())).message).toBe(
      '1 of 1 answer with status 200 or 202 (the burst\'s calls and repeats counted; not calls around the restart) broke it: 1 had no content type while the body was a JSON object',
    );
  });

  it('counts a wrong content type over a JSON object apart from a body that is no JSON object, naming the content types', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { contentType: 'text/plain', body: shopDbFinal() });
    b.post('plan', { contentType: 'text/plain', body: shopDbFinal() });
    b.post('apply', { contentType: 'text/html', status: 202, body: { operationId: 'x' } });
    expect(brokenOf(answerJson.judge(b.transcript, context())).message).toBe(
      '3 of 3 answers with status 200 or 202 (the burst\'s calls and repeats counted; not calls around the restart) broke it: 3 had content type text/plain or content type text/html while the body was a JSON object',
    );
    b.post('plan', { body: '[1]' });
    expect(brokenOf(answerJson.judge(b.transcript, context())).message).toBe(
      '4 of 4 answers with status 200 or 202 (the burst\'s calls and repeats counted; not calls around the restart) broke it: 3 had content type text/plain or content type text/html while the body was a JSON object; 1 had a JSON content type but a body that is no JSON object',
    );
  });

  it('says how many answers it held, and why it judged none', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 409, body: {} });
    expect(answerJson.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no plan or apply was answered 200 or 202' });
    b.post('plan', { body: shopDbFinal() });
    expect(answerJson.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 answer with status 200 or 202 (the burst\'s calls and repeats counted; not calls around the restart), all JSON objects with a JSON content type',
    });
  });
});

describe('answers recorded with neither a response nor a transport error', () => {
  // A transcript edited by hand may hold such an exchange: the judges name it and never fail on it.
  function bare(): TranscriptBuilder {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    const lost = b.post('apply', { body: shopDbFinal() });
    delete lost.response;
    return b;
  }

  it('is no 200 or 202 to answer.status, and is named as no answer', () => {
    expect(brokenOf(answerStatus.judge(bare().transcript, context())).notes).toEqual(['POST /apply got no answer']);
  });

  it('is not timed by answer.prompt', () => {
    expect(answerPrompt.judge(bare().transcript, context())).toMatchObject({ outcome: 'held', message: expect.stringMatching(/^1 answer to plan and apply \(repeats counted; not the burst's calls or calls around the restart\);/) });
  });
});
