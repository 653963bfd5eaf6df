import { describe, expect, it } from 'vitest';
import { answerPrompt, answerStatus } from '../../src/rules/catalog/answers.js';
import {
  operationInProgressDescription,
  operationInProgressResultsEmpty,
  operationStatus,
  operationTransientErrors,
} from '../../src/rules/catalog/operation-answers.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { accepted, evidenceOf, finished } from './operation-fixtures.js';

/**
 * The rules about answers and reads at their edges: an answer taking exactly the answer timeout, a 500
 * as well as a 502 or 503, reads with no response, two operations in one transcript. Shape checks are
 * left to the schema-driven tests.
 */

const OTHER_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

describe('answer.prompt at the answer timeout', () => {
  it('holds for an answer that took exactly --answer-timeout, and is broken a millisecond later', () => {
    const exact = new TranscriptBuilder();
    exact.post('plan', { took: 2000, body: shopDbFinal() });
    expect(answerPrompt.judge(exact.transcript, context({ answerTimeoutMs: 2000 }))).toEqual({
      outcome: 'held',
      message: '1 answer to plan and apply (repeats counted; not the burst\'s calls or calls around the restart); the slowest took 2.0s (limit 2.0s)',
    });
    const late = new TranscriptBuilder();
    const slow = late.post('apply', { took: 2001, status: 202, body: { operationId: OP_ID } });
    late.post('plan', { took: 10, body: shopDbFinal() });
    expect(answerPrompt.judge(late.transcript, context({ answerTimeoutMs: 2000 }))).toEqual({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 plan or apply calls (repeats counted; not the burst\'s calls or calls around the restart) were not answered within 2.0s; the slowest took 2.0s (limit 2.0s)',
      evidence: [{ note: 'POST /apply answered after 2.0s (limit 2.0s)', exchanges: [slow.seq] }],
    });
  });

  it('times an answer by when its status came, not when its body ended', () => {
    const b = new TranscriptBuilder();
    const post = b.post('plan', { took: 5000, body: shopDbFinal() });
    const streamed = new Transcript([{ ...post, respondedAt: post.sentAt + 300 }]);
    expect(answerPrompt.judge(streamed, context({ answerTimeoutMs: 1000 }))).toMatchObject({ outcome: 'held', message: expect.stringContaining('the slowest took 300ms') });
  });

  it('counts a timeout among the timed calls and names it, and leaves other failures out', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { took: 10, body: shopDbFinal() });
    const hung = b.post('apply', { took: 1500, error: { kind: 'timeout', message: 'headers timeout' } });
    b.post('apply', { error: { kind: 'reset', message: 'socket hang up' } });
    b.post('apply', { error: { kind: 'dns', message: 'ENOTFOUND' } });
    expect(answerPrompt.judge(b.transcript, context({ answerTimeoutMs: 2000 }))).toEqual({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 plan or apply calls (repeats counted; not the burst\'s calls or calls around the restart) were not answered within 2.0s; the slowest took 1.5s (limit 2.0s)',
      evidence: [{ note: 'POST /apply got no answer: timeout after 1.5s (limit 2.0s)', exchanges: [hung.seq] }],
    });
  });
});

describe('answer.status at its edges', () => {
  it('names each kind of missing answer, and each status other than 200 or 202', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: shopDbFinal() });
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.post('plan', { status: 201, body: shopDbFinal() });
    b.post('plan', { status: 500, body: '' });
    b.post('plan', { error: { kind: 'refused', message: 'ECONNREFUSED' } });
    b.post('plan', { error: { kind: 'reset', message: 'socket hang up' } });
    b.post('plan', { error: { kind: 'dns', message: 'ENOTFOUND' } });
    b.post('plan', { took: 3000, error: { kind: 'timeout', message: 'headers timeout' } });
    b.post('plan', { error: { kind: 'other', message: 'TLS handshake failed' } });
    const judgement = answerStatus.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 7, message: '7 of 9 plan or apply calls (not the burst\'s calls, repeats, calls refused under load or calls around the restart) did not get 200 or 202' });
    expect(evidenceOf(judgement).map((e) => e.note)).toEqual([
      'POST /plan answered 201',
      'POST /plan answered 500',
      'POST /plan got no answer: connection refused (ECONNREFUSED)',
      'POST /plan got no answer: connection reset (socket hang up)',
      'POST /plan got no answer: host name did not resolve (ENOTFOUND)',
      'POST /plan got no answer: timeout after 3.0s',
      'POST /plan got no answer: TLS handshake failed',
    ]);
  });

  it('does not judge bad-input probes', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: shopDbFinal() });
    b.badInput('plan', { status: 400, body: {} });
    expect(answerStatus.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '1 answer to plan and apply (not the burst\'s calls, repeats, calls refused under load or calls around the restart), all 200 or 202' });
  });
});

describe('operation.status at its edges', () => {
  it('leaves a 500 and a read with no response to the transient rule, and judges a 499', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, status: 500, body: '' });
    b.read(OP_ID, { at: 20, error: { kind: 'timeout', message: 'no answer' } });
    const odd = b.read(OP_ID, { at: 30, status: 499, body: {} });
    b.read(OP_ID, { at: 1000, body: shopDbFinal() });
    expect(operationStatus.judge(b.transcript, context())).toEqual({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 reads before the final answer did not answer 200',
      evidence: [{ note: 'read sent 25ms after the 202 answered 499 instead of 200', exchanges: [odd.seq, 1] }],
    });
  });

  it('counts reads and operations across two operations', () => {
    const b = accepted();
    b.post('plan', { at: 10, status: 202, body: { operationId: OTHER_ID } });
    b.read(OP_ID, { at: 20, body: IN_PROGRESS });
    b.read(OTHER_ID, { at: 30, body: IN_PROGRESS });
    b.read(OTHER_ID, { at: 40, body: shopDbFinal() });
    expect(operationStatus.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '3 reads of 2 operations before the final answer, all answered 200',
    });
  });

  it('is not exercised when every read before the final answer was a 404 or transient', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, status: 404, body: {} });
    b.read(OP_ID, { at: 20, status: 502, body: '' });
    expect(operationStatus.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no read before a final answer got an answer other than 404 or a transient error',
    });
  });
});

describe('operation.transient-errors at its edges', () => {
  it('counts a 500 like a 502 or 503, but not a 499, and not probes of unknown ids', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, status: 500, body: '' });
    b.read(OP_ID, { at: 20, status: 499, body: {} });
    b.read(OP_ID, { at: 30, status: 500, body: '', tag: 'read-concurrent' });
    b.read(OP_ID, { at: 40, status: 502, body: '' });
    b.read(OTHER_ID, { at: 50, status: 503, body: '', tag: 'read-unknown' });
    expect(operationTransientErrors.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      count: 3,
      message: '1 of 3 polls, and 1 of 1 probe read, answered 500; 1 of 3 polls answered 502',
    });
  });

  it('holds for a single read, in the singular', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    expect(operationTransientErrors.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 poll, none answered 5xx, timed out or lost its connection',
    });
  });
});

describe('in_progress answers at their edges', () => {
  it('judges only 200 answers that say in_progress', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, status: 500, body: { ...IN_PROGRESS, results: [{ id: 'x' }] } });
    b.read(OP_ID, { at: 20, status: 202, body: { ...IN_PROGRESS, description: '' } });
    b.read(OP_ID, { at: 25, body: 'in_progress', contentType: 'text/plain' });
    b.read(OP_ID, { at: 30, body: IN_PROGRESS });
    expect(operationInProgressResultsEmpty.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '1 in_progress answer, all with empty results' });
    expect(operationInProgressDescription.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 in_progress answer, all with a short progress note',
    });
  });

  it('counts the results an in_progress answer held', () => {
    const { b } = finished();
    const one = b.read(OP_ID, { at: 20, body: { ...IN_PROGRESS, results: [{ id: 'a' }] } });
    expect(evidenceOf(operationInProgressResultsEmpty.judge(b.transcript, context()))).toEqual([
      { note: 'read sent 15ms after the 202 said in_progress but held 1 result', exchanges: [one.seq] },
    ]);
  });

  it('takes a note of exactly 500 characters, counted as characters, and not one of 501', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: { ...IN_PROGRESS, description: '😀'.repeat(500) } });
    expect(operationInProgressDescription.judge(b.transcript, context()).outcome).toBe('held');
    const long = b.read(OP_ID, { at: 20, body: { ...IN_PROGRESS, description: 'x'.repeat(501) } });
    const missing = b.read(OP_ID, { at: 30, body: { outcome: 'in_progress', results: [] } });
    const numeric = b.read(OP_ID, { at: 40, body: { ...IN_PROGRESS, description: 7 } });
    const blank = b.read(OP_ID, { at: 50, body: { ...IN_PROGRESS, description: ' \n' } });
    expect(operationInProgressDescription.judge(b.transcript, context())).toEqual({
      outcome: 'broken',
      count: 4,
      message: '4 of 5 in_progress answers lack a short progress note',
      evidence: [
        { note: 'read sent 15ms after the 202 said in_progress but has a description of 501 characters (at most 500)', exchanges: [long.seq] },
        { note: 'read sent 25ms after the 202 said in_progress but has no description', exchanges: [missing.seq] },
        { note: 'read sent 35ms after the 202 said in_progress but has a description that is not a string', exchanges: [numeric.seq] },
        { note: 'read sent 45ms after the 202 said in_progress but has an empty description', exchanges: [blank.seq] },
      ],
    });
  });
});

describe('a progress note counted as a reader counts it: one character per code point', () => {
  const counted = (description: string): string => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: { ...IN_PROGRESS, description } });
    const judgement = operationInProgressDescription.judge(b.transcript, context());
    return judgement.outcome === 'broken' ? judgement.evidence[0]!.note.replace(/^.* of (\d+) characters .*$/, '$1') : judgement.outcome;
  };

  it('counts a pair of surrogates as one character, up to the last code point', () => {
    expect(counted('\u{10FFFF}'.repeat(501))).toBe('501');
    expect(counted('\u{10FFFF}'.repeat(500))).toBe('held');
    expect(counted('\u{10000}'.repeat(500))).toBe('held');
  });

  it('counts each half of a broken pair as a character of its own', () => {
    expect(counted('a\uDE00'.repeat(251))).toBe('502');
    expect(counted('\uDE00'.repeat(502))).toBe('502');
    expect(counted('\uD83Da'.repeat(251))).toBe('502');
    expect(counted('\uD83D\uE000'.repeat(251))).toBe('502');
  });
});

describe('operation.status and operation.transient-errors: the reads they count', () => {
  it('judges the reads of an operation that never gave a final answer', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 20, body: IN_PROGRESS });
    expect(operationStatus.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 reads of 1 operation before the final answer, all answered 200',
    });
  });

  it('counts probe reads apart from polls', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 15, body: IN_PROGRESS, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 16, body: IN_PROGRESS, tag: 'read-concurrent' });
    expect(operationTransientErrors.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 poll and 2 probe reads, none answered 5xx, timed out or lost its connection',
    });
  });
});
