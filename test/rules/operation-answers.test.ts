import { describe, expect, it } from 'vitest';
import { operationBody, operationInProgressDescription, operationInProgressResultsEmpty, operationStatus, operationTransientErrors, RULES } from '../../src/rules/catalog/operation-answers.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['operation.status', 'MUST'],
  ['operation.transient-errors', 'SHOULD'],
  ['operation.body', 'MUST'],
  ['operation.in-progress-results-empty', 'MUST'],
  ['operation.in-progress-description', 'SHOULD'],
]);

const HTML_503 = '<html><body><h1>503 Service Unavailable</h1></body></html>';

/** A 202 at 0 ms that ends at 5 ms. */
function accepted(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
  return b;
}

function neverAccepted(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('apply', { at: 0, status: 200, body: shopDbFinal() });
  return b;
}

describe('operation.status', () => {
  it('holds when every read before the final answer answers 200', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 1010, body: shopDbFinal() });
    const judgement = operationStatus.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'held', message: '2 reads of 1 operation before the final answer, all answered 200' });
  });

  it('is broken by a 204 before the final answer, naming the read and the 202', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const odd = b.read(OP_ID, { at: 1010, status: 204, body: '', contentType: null });
    b.read(OP_ID, { at: 2010, body: shopDbFinal() });
    const judgement = operationStatus.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1 });
    if (judgement.outcome !== 'broken') return;
    expect(judgement.evidence).toEqual([{ note: 'read sent 1.0s after the 202 answered 204 instead of 200', exchanges: [odd.seq, 1] }]);
  });

  it('leaves 404, transient answers and answers after the final one to other rules', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, status: 503, body: HTML_503, contentType: 'text/html' });
    b.read(OP_ID, { at: 20, error: { kind: 'timeout', message: 'timed out' } });
    b.read(OP_ID, { at: 1010, body: shopDbFinal() });
    b.read(OP_ID, { at: 1020, status: 410, tag: 'read-after-final' });
    expect(operationStatus.judge(b.transcript, context())).toMatchObject({ outcome: 'held', message: expect.stringContaining('1 read of 1 operation') });

    const lost = accepted();
    lost.read(OP_ID, { at: 10, status: 404, body: { error: 'not found' } });
    expect(operationStatus.judge(lost.transcript, context())).toMatchObject({ outcome: 'not-exercised' });
  });

  it('never counts a read that may have reached the provisioner after it gave the final answer', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const final = b.read(OP_ID, { at: 1000, took: 20, body: shopDbFinal() });
    // Probes sent beside the poll that got the final answer: under way while it was given.
    const overlapping = b.read(OP_ID, { at: 1010, took: 30, status: 409, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1000, took: 100, status: 410, tag: 'read-concurrent' });
    expect(overlapping.sentAt).toBeLessThan(final.endedAt);
    expect(operationStatus.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '2 reads of 1 operation before the final answer, all answered 200' });
  });

  it('is broken by a read answered before the final answer was even asked for', () => {
    const b = accepted();
    const gone = b.read(OP_ID, { at: 900, took: 20, status: 410, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1000, took: 20, body: shopDbFinal() });
    expect(operationStatus.judge(b.transcript, context())).toMatchObject({ outcome: 'broken', count: 1, evidence: [{ exchanges: [gone.seq, 1] }] });
  });

  it('is not applicable when every call was answered at once, and not exercised when none was answered 200 or 202', () => {
    expect(operationStatus.judge(neverAccepted().transcript, context())).toEqual({
      outcome: 'not-applicable',
      message: 'the one plan or apply call was answered 200 at once: no operation to read',
    });
    const refused = new TranscriptBuilder();
    refused.post('apply', { status: 429, body: {} });
    expect(operationStatus.judge(refused.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'the provisioner never answered 202 with an operationId, so no operation was read',
    });
  });
});

describe('operation.transient-errors', () => {
  it('holds when no read fails transiently', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 1010, body: shopDbFinal() });
    expect(operationTransientErrors.judge(b.transcript, context())).toMatchObject({ outcome: 'held', message: '2 polls, none answered 5xx, timed out or lost its connection' });
  });

  it('counts 5xx answers, timeouts and broken connections with a breakdown, polls apart from probe reads', () => {
    const b = accepted();
    const first = b.read(OP_ID, { at: 10, status: 503, body: HTML_503, contentType: 'text/html' });
    b.read(OP_ID, { at: 1010, body: IN_PROGRESS });
    const timeout = b.read(OP_ID, { at: 2010, took: 2000, error: { kind: 'timeout', message: 'timed out' } });
    b.read(OP_ID, { at: 2020, status: 503, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 2030, error: { kind: 'reset', message: 'socket hang up' }, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 5010, body: shopDbFinal() });
    const judgement = operationTransientErrors.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 4, message: '1 of 4 polls, and 1 of 2 probe reads, answered 503; 1 of 4 polls timed out; 1 of 2 probe reads had their connection reset' });
    if (judgement.outcome !== 'broken') return;
    expect(judgement.evidence[0]).toEqual({ note: 'read sent 5ms after the 202 answered 503', exchanges: [first.seq] });
    expect(judgement.evidence[1]).toEqual({ note: 'read sent 2.0s after the 202 timed out after 2.0s', exchanges: [timeout.seq] });
  });

  it('says what each failed connection met: refused, a host name that did not resolve, or no answer for another reason', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
    b.read(OP_ID, { at: 1010, error: { kind: 'dns', message: 'getaddrinfo ENOTFOUND' } });
    b.read(OP_ID, { at: 2010, error: { kind: 'other', message: 'socket closed' } });
    b.read(OP_ID, { at: 3010, body: shopDbFinal() });
    expect(operationTransientErrors.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      count: 3,
      message: '1 of 4 polls had their connection refused; 1 of 4 polls failed on a host name that did not resolve; 1 of 4 polls failed without an answer',
    });
  });

  it('is not exercised when no operation was read', () => {
    const b = accepted();
    expect(operationTransientErrors.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: '1 operation was accepted but never read' });
  });
});

describe('operation.body', () => {
  it('holds for JSON outcome objects', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS, contentType: 'application/json; charset=utf-8' });
    b.read(OP_ID, { at: 1010, body: shopDbFinal('failed'), contentType: 'application/problem+json' });
    expect(operationBody.judge(b.transcript, context())).toMatchObject({ outcome: 'held' });
  });

  it('treats a 503 HTML page as transient, not as a body fault', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, status: 503, body: HTML_503, contentType: 'text/html' });
    b.read(OP_ID, { at: 1010, body: shopDbFinal() });
    expect(operationBody.judge(b.transcript, context())).toMatchObject({ outcome: 'held', message: '1 read answered 200, all with a JSON outcome object' });
    expect(operationTransientErrors.judge(b.transcript, context())).toMatchObject({ outcome: 'broken', count: 1 });
  });

  it('is broken by a wrong content type, a non-JSON body or missing fields', () => {
    const b = accepted();
    const textPlain = b.read(OP_ID, { at: 10, body: IN_PROGRESS, contentType: 'text/plain' });
    const notJson = b.read(OP_ID, { at: 1010, body: 'working', contentType: 'application/json' });
    const badShape = b.read(OP_ID, { at: 2010, body: { outcome: 'done', description: 7 } });
    b.read(OP_ID, { at: 3010, body: shopDbFinal() });
    const judgement = operationBody.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 3, message: '3 of 4 reads answering 200 lack the outcome shape' });
    if (judgement.outcome !== 'broken') return;
    expect(judgement.evidence).toEqual([
      { note: 'read sent 5ms after the 202 answered 200, but content type is text/plain, not JSON', exchanges: [textPlain.seq] },
      { note: 'read sent 1.0s after the 202 answered 200, but body is not JSON', exchanges: [notJson.seq] },
      {
        note: 'read sent 2.0s after the 202 answered 200, but outcome "done" is not in_progress, succeeded or failed; description is not a string; results is not an array',
        exchanges: [badShape.seq],
      },
    ]);
  });

  it('says when a 200 read came with no content type at all', () => {
    const b = accepted();
    const bare = b.read(OP_ID, { at: 10, body: IN_PROGRESS, contentType: null });
    expect(operationBody.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      evidence: [{ note: 'read sent 5ms after the 202 answered 200, but no content type', exchanges: [bare.seq] }],
    });
  });

  it('is not exercised when no read answered 200', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, status: 404, body: {} });
    expect(operationBody.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no read of an operation answered 200' });
  });
});

describe('operation.in-progress-results-empty', () => {
  it('holds when in_progress answers hold no results', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 1010, body: shopDbFinal() });
    expect(operationInProgressResultsEmpty.judge(b.transcript, context())).toMatchObject({ outcome: 'held', message: '1 in_progress answer, all with empty results' });
  });

  it('is broken by results in an in_progress answer', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const early = b.read(OP_ID, { at: 1010, body: { ...IN_PROGRESS, results: shopDbFinal().results } });
    const judgement = operationInProgressResultsEmpty.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1 });
    if (judgement.outcome !== 'broken') return;
    expect(judgement.evidence).toEqual([{ note: 'read sent 1.0s after the 202 said in_progress but held 1 result', exchanges: [early.seq] }]);
  });

  it('leaves a missing results array to operation.body', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: { outcome: 'in_progress', description: 'Working.' } });
    expect(operationInProgressResultsEmpty.judge(b.transcript, context())).toMatchObject({ outcome: 'not-exercised' });
    expect(operationBody.judge(b.transcript, context())).toMatchObject({ outcome: 'broken' });
  });

  it('is not exercised when no read answered in_progress', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: shopDbFinal() });
    expect(operationInProgressResultsEmpty.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no read answered in_progress' });
  });
});

describe('operation.in-progress-description', () => {
  it('holds for short notes, up to 500 characters', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 1010, body: { ...IN_PROGRESS, description: 'é'.repeat(500) } });
    expect(operationInProgressDescription.judge(b.transcript, context())).toMatchObject({ outcome: 'held', message: '2 in_progress answers, all with a short progress note' });
  });

  it('is broken by a blank or an overlong note', () => {
    const b = accepted();
    const blank = b.read(OP_ID, { at: 10, body: { ...IN_PROGRESS, description: '  \n' } });
    const long = b.read(OP_ID, { at: 1010, body: { ...IN_PROGRESS, description: 'x'.repeat(501) } });
    const judgement = operationInProgressDescription.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 2 });
    if (judgement.outcome !== 'broken') return;
    expect(judgement.evidence).toEqual([
      { note: 'read sent 5ms after the 202 said in_progress but has an empty description', exchanges: [blank.seq] },
      { note: 'read sent 1.0s after the 202 said in_progress but has a description of 501 characters (at most 500)', exchanges: [long.seq] },
    ]);
  });

  it('counts characters, not UTF-16 units: a pair is one character, a lone surrogate one too', () => {
    const b = accepted();
    // 500 characters in 1,000 units holds; 501 characters (one a lone surrogate) is too long, as is a long note.
    b.read(OP_ID, { at: 10, body: { ...IN_PROGRESS, description: '😀'.repeat(500) } });
    const lone = b.read(OP_ID, { at: 1010, body: { ...IN_PROGRESS, description: `${'😀'.repeat(499)}\ud800\udc00\udc00` } });
    const reversed = b.read(OP_ID, { at: 2010, body: { ...IN_PROGRESS, description: `\ude00\ud83d${'😀'.repeat(499)}` } });
    const echoed = b.read(OP_ID, { at: 3010, body: { ...IN_PROGRESS, description: 'y'.repeat(100_000) } });
    const judgement = operationInProgressDescription.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 3 });
    if (judgement.outcome !== 'broken') return;
    expect(judgement.evidence.map((item) => [item.note.replace(/^.* but /, ''), item.exchanges])).toEqual([
      ['has a description of 501 characters (at most 500)', [lone.seq]],
      ['has a description of 501 characters (at most 500)', [reversed.seq]],
      ['has a description of 100000 characters (at most 500)', [echoed.seq]],
    ]);
    // The same counts as spreading the text into its characters gives.
    expect(['😀'.repeat(500), `${'😀'.repeat(499)}\ud800\udc00\udc00`, `\ude00\ud83d${'😀'.repeat(499)}`].map((text) => [...text].length)).toEqual([500, 501, 501]);
  });

  it('is not exercised when no read answered in_progress, and not applicable when no call was accepted', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: shopDbFinal() });
    expect(operationInProgressDescription.judge(b.transcript, context())).toMatchObject({ outcome: 'not-exercised' });
    expect(operationInProgressDescription.judge(neverAccepted().transcript, context())).toMatchObject({ outcome: 'not-applicable' });
  });
});
