import { describe, expect, it } from 'vitest';
import type { Judgement } from '../../src/rules/types.js';
import { formatMs } from '../../src/core/duration.js';
import { operation404Identifiable, operationMalformedId, operationUnknown404, RULES } from '../../src/rules/catalog/operation-probes.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['operation.unknown-404', 'MUST'],
  ['operation.404-identifiable', 'ADVICE'],
  ['operation.malformed-id', 'SHOULD'],
]);

const UNKNOWN_A = '0b7e4c1a-2f3d-4a5b-8c6d-7e8f9a0b1c2d';
const UNKNOWN_B = '9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a';
const NOT_FOUND = { error: 'unknown operation' };

function evidenceOf(judgement: Judgement) {
  return judgement.outcome === 'broken' ? judgement.evidence : [];
}

describe('operation.unknown-404', () => {
  it('holds when every read of an unknown id answers 404', () => {
    const b = new TranscriptBuilder();
    for (const id of [UNKNOWN_A, UNKNOWN_B, UNKNOWN_A, UNKNOWN_B]) b.read(id, { status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    expect(operationUnknown404.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '4 reads of 2 unknown ids, all answered 404' });
  });

  it('holds when a transient 5xx is followed by 404s, and says the 5xx says nothing', () => {
    const b = new TranscriptBuilder();
    b.read(UNKNOWN_A, { at: 0, status: 503, body: '', tag: 'read-unknown' });
    b.read(UNKNOWN_A, { at: 1000, status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    b.read(UNKNOWN_A, { at: 1010, status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    expect(operationUnknown404.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 reads of 1 unknown id, all answered 404; 1 more failed transiently and say nothing',
    });
  });

  it('is broken by a 200 to an unknown id', () => {
    const b = new TranscriptBuilder();
    const made = b.read(UNKNOWN_A, { body: IN_PROGRESS, tag: 'read-unknown' });
    const judgement = operationUnknown404.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1 });
    expect(evidenceOf(judgement)).toEqual([
      { note: `the read of the unknown id "${UNKNOWN_A}" answered 200 instead of 404`, exchanges: [made.seq] },
    ]);
  });

  it('says when the second read finds what the first one created', () => {
    const b = new TranscriptBuilder();
    const first = b.read(UNKNOWN_A, { status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    const second = b.read(UNKNOWN_A, { body: IN_PROGRESS, tag: 'read-unknown' });
    expect(evidenceOf(operationUnknown404.judge(b.transcript, context()))).toEqual([
      {
        note: `a read of the unknown id "${UNKNOWN_A}" ${formatMs(second.sentAt - first.sentAt)} after the first answered 200 where the first answered 404: reading it created it`,
        exchanges: [second.seq, first.seq],
      },
    ]);
  });

  it('is not exercised when no unknown id got an answer', () => {
    const none = new TranscriptBuilder();
    expect(operationUnknown404.judge(none.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no unknown id was read' });
    const flaky = new TranscriptBuilder();
    flaky.read(UNKNOWN_A, { error: { kind: 'timeout', message: 'timed out' }, tag: 'read-unknown' });
    flaky.read(UNKNOWN_A, { status: 502, body: '', tag: 'read-unknown' });
    expect(operationUnknown404.judge(flaky.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message:
        'every read of an unknown id failed transiently (2 reads over 11ms: 1×timeout, 1×502), and no unknown id was read 3 times over two poll intervals, so the failures may have been passing',
    });
  });
});

describe('operation.404-identifiable', () => {
  it('holds when every 404 of a read is JSON, known, unknown or malformed', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { body: shopDbFinal() });
    b.read(OP_ID, { status: 404, body: NOT_FOUND, tag: 'read-after-final' });
    b.read(UNKNOWN_A, { status: 404, body: NOT_FOUND, contentType: 'application/problem+json', tag: 'read-unknown' });
    b.read('not-a-uuid', { status: 404, body: NOT_FOUND, tag: 'read-malformed' });
    expect(operation404Identifiable.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '3 reads answered 404, all with a JSON content type and body',
    });
  });

  it('is broken by a 404 page of HTML or an empty body', () => {
    const b = new TranscriptBuilder();
    const html = b.read(UNKNOWN_A, { status: 404, body: '<html><h1>Not Found</h1></html>', contentType: 'text/html', tag: 'read-unknown' });
    const empty = b.read('not-a-uuid', { status: 404, body: '', tag: 'read-malformed' });
    b.read(UNKNOWN_B, { status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    const judgement = operation404Identifiable.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 2 });
    expect(evidenceOf(judgement)).toEqual([
      { note: `the 404 to the read of "${UNKNOWN_A}" has content type text/html and a body that is not JSON`, exchanges: [html.seq] },
      { note: 'the 404 to the read of "not-a-uuid" has a body that is not JSON', exchanges: [empty.seq] },
    ]);
  });

  it('is not exercised without a 404', () => {
    const b = new TranscriptBuilder();
    b.read('not-a-uuid', { status: 400, body: {}, tag: 'read-malformed' });
    expect(operation404Identifiable.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no read answered 404' });
  });
});

describe('operation.malformed-id', () => {
  it('holds for 400 and 404', () => {
    const b = new TranscriptBuilder();
    b.read('not-a-uuid', { status: 400, body: {}, tag: 'read-malformed' });
    b.read('a%2Fb', { status: 404, body: {}, tag: 'read-malformed' });
    expect(operationMalformedId.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '2 reads of malformed ids, all answered 400 or 404' });
  });

  it('is broken by 200 and by a 4xx other than 400 and 404', () => {
    const b = new TranscriptBuilder();
    const ok = b.read('not-a-uuid', { body: IN_PROGRESS, tag: 'read-malformed' });
    const long = 'x'.repeat(5000);
    const tooLong = b.read(long, { status: 414, body: '', tag: 'read-malformed' });
    b.read('a%2Fb', { status: 404, body: {}, tag: 'read-malformed' });
    const judgement = operationMalformedId.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 2, message: '2 of 3 reads of malformed ids did not answer 400 or 404' });
    expect(evidenceOf(judgement)).toEqual([
      { note: 'the read of the malformed id "not-a-uuid" answered 200, not 400 or 404', exchanges: [ok.seq] },
      { note: `the read of the malformed id "${'x'.repeat(49)}…" (5000 characters) answered 414, not 400 or 404`, exchanges: [tooLong.seq] },
    ]);
  });

  it('takes a 5xx or a transport failure for no answer: a later read of the id decides', () => {
    const b = new TranscriptBuilder();
    b.read(' ', { at: 0, status: 503, body: '', tag: 'read-malformed' });
    b.read(' ', { at: 1000, status: 404, body: {}, tag: 'read-malformed' });
    b.read('a%2Fb', { at: 0, error: { kind: 'reset', message: 'socket hang up' }, tag: 'read-malformed' });
    b.read('a%2Fb', { at: 1000, status: 400, body: {}, tag: 'read-malformed' });
    expect(operationMalformedId.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 reads of malformed ids, all answered 400 or 404; 2 more failed transiently and say nothing',
    });
  });

  it('is broken by a malformed id that answers only 5xx over two poll intervals while known operations are read', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 5, body: IN_PROGRESS });
    b.read(OP_ID, { at: 1005, body: IN_PROGRESS });
    const crashes = [0, 1000, 2000].map((at) => b.read(' ', { at, status: 500, body: '', tag: 'read-malformed' }));
    b.read('a%2Fb', { at: 0, status: 404, body: {}, tag: 'read-malformed' });
    const judgement = operationMalformedId.judge(b.transcript, context());
    expect(judgement).toMatchObject({
      outcome: 'broken',
      count: 1,
      message: '1 malformed id answered nothing but 5xx or no answer, while reads of known operations answered 200',
    });
    expect(evidenceOf(judgement)[0]!.note).toBe('every read of the malformed id " " answered 500 (3 reads over 2.0s), while 2 reads of known operations made meanwhile answered 200');
    expect(evidenceOf(judgement)[0]!.exchanges.slice(0, 3)).toEqual(crashes.map((read) => read.seq));
  });

  it('counts only the wrong answers when a malformed id that got no answer is not silent for good', () => {
    const b = new TranscriptBuilder();
    b.read('not-a-uuid', { status: 200, body: {}, tag: 'read-malformed' });
    b.read(' ', { status: 502, body: '', tag: 'read-malformed' });
    expect(operationMalformedId.judge(b.transcript, context())).toMatchObject({ outcome: 'broken', count: 1, message: '1 of 1 read of malformed ids did not answer 400 or 404' });
  });

  it('is not exercised when every read of a malformed id failed transiently and nothing shows the ids are to blame', () => {
    const once = new TranscriptBuilder();
    once.read(' ', { status: 502, body: '', tag: 'read-malformed' });
    expect(operationMalformedId.judge(once.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'every read of a malformed id failed transiently, and no malformed id was read 3 times over two poll intervals, so the failures may have been passing',
    });
    const down = new TranscriptBuilder();
    down.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    down.read(OP_ID, { at: 5, status: 503, body: '' });
    down.read(OP_ID, { at: 1005, status: 503, body: '' });
    for (const at of [0, 1000, 2000]) down.read(' ', { at, status: 503, body: '', tag: 'read-malformed' });
    expect(operationMalformedId.judge(down.transcript, context())).toMatchObject({
      outcome: 'not-exercised',
      message: /^every read of a malformed id failed transiently, and so did every read of a known operation made meanwhile: the provisioner looked down/,
    });
  });

  it('is not exercised when no malformed id was read', () => {
    expect(operationMalformedId.judge(new TranscriptBuilder().transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no malformed id was read' });
  });
});

describe('reads of ids never issued, in observed traffic', () => {
  it('say by which criterion the traffic had none, since an id read early may have been issued before the observation', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 10, body: shopDbFinal() });
    expect(operationUnknown404.judge(b.transcript, context({ observed: true }))).toEqual({
      outcome: 'not-exercised',
      message:
        'no read named a UUID never accepted in the observation and first read after it had run 30m01s (the operation deadline and a poll interval): an id read earlier may have been issued before the observation began',
    });
    expect(operationMalformedId.judge(b.transcript, context({ observed: true }))).toMatchObject({ outcome: 'not-exercised', message: expect.stringContaining('every operationId the provisioner was seen giving') });
    expect(operationUnknown404.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no unknown id was read' });
  });
});
