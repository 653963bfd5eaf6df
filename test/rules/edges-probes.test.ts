import { describe, expect, it } from 'vitest';
import { operation404Identifiable, operationMalformedId, operationUnknown404 } from '../../src/rules/catalog/operation-probes.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context } from '../support/transcript-builder.js';
import { evidenceOf } from './operation-fixtures.js';

/** The probe rules at their edges: reads recorded out of the order they were sent, repeated answers, reads with no response. */

const UNKNOWN = '0b7e4c1a-2f3d-4a5b-8c6d-7e8f9a0b1c2d';
const NOT_FOUND = { error: 'unknown operation' };

describe('operation.unknown-404 at its edges', () => {
  it('takes the read sent first as the first read, whatever order the answers were recorded in', () => {
    const b = new TranscriptBuilder();
    // Recorded first, sent second: its answer came back after the 404 to the read sent earlier.
    const second = b.read(UNKNOWN, { at: 100, took: 5, body: IN_PROGRESS, tag: 'read-unknown' });
    const first = b.read(UNKNOWN, { at: 50, took: 80, status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    const judgement = operationUnknown404.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1, message: '1 of 2 reads of unknown ids did not answer 404' });
    expect(evidenceOf(judgement)).toEqual([
      {
        note: `a read of the unknown id "${UNKNOWN}" 50ms after the first answered 200 where the first answered 404: reading it created it`,
        exchanges: [second.seq, first.seq],
      },
    ]);
  });

  it('holds every later read to the first read of the id, not to the one before it', () => {
    const b = new TranscriptBuilder();
    const first = b.read(UNKNOWN, { status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    b.read(UNKNOWN, { status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    const third = b.read(UNKNOWN, { body: IN_PROGRESS, tag: 'read-unknown' });
    expect(evidenceOf(operationUnknown404.judge(b.transcript, context()))).toEqual([
      { note: expect.stringContaining('reading it created it'), exchanges: [third.seq, first.seq] },
    ]);
  });

  it('does not say "created" when both reads answered the same wrong status', () => {
    const b = new TranscriptBuilder();
    const first = b.read(UNKNOWN, { body: IN_PROGRESS, tag: 'read-unknown' });
    const second = b.read(UNKNOWN, { body: IN_PROGRESS, tag: 'read-unknown' });
    const judgement = operationUnknown404.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 2, message: '2 of 2 reads of unknown ids did not answer 404' });
    expect(evidenceOf(judgement)).toEqual([
      { note: `the read of the unknown id "${UNKNOWN}" answered 200 instead of 404`, exchanges: [first.seq] },
      { note: `the read of the unknown id "${UNKNOWN}" answered 200 instead of 404`, exchanges: [second.seq, first.seq] },
    ]);
  });

  it('prints a read that lost its id as an empty id', () => {
    const b = new TranscriptBuilder();
    const read = b.read(UNKNOWN, { body: IN_PROGRESS, tag: 'read-unknown' });
    const transcript = new Transcript([{ ...read, operationId: undefined }]);
    expect(evidenceOf(operationUnknown404.judge(transcript, context()))).toEqual([
      { note: 'the read of the unknown id "" answered 200 instead of 404', exchanges: [read.seq] },
    ]);
  });
});

describe('operation.404-identifiable at its edges', () => {
  it('names a 404 without a content type, among reads that got no response at all', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { error: { kind: 'timeout', message: 'no answer' } });
    b.read(OP_ID, { error: { kind: 'refused', message: 'ECONNREFUSED' }, tag: 'read-unknown' });
    const bare = b.read(UNKNOWN, { status: 404, body: 'Not Found', contentType: null, tag: 'read-unknown' });
    const judgement = operation404Identifiable.judge(b.transcript, context());
    expect(judgement).toMatchObject({
      outcome: 'broken',
      count: 1,
      message: '1 of 1 read answering 404 could be taken for a 404 from a router or proxy',
    });
    expect(evidenceOf(judgement)).toEqual([
      { note: `the 404 to the read of "${UNKNOWN}" has no content type and a body that is not JSON`, exchanges: [bare.seq] },
    ]);
  });

  it('names a JSON body under another content type', () => {
    const b = new TranscriptBuilder();
    b.read('not-a-uuid', { status: 404, body: NOT_FOUND, contentType: 'text/plain', tag: 'read-malformed' });
    b.read(UNKNOWN, { status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    expect(operation404Identifiable.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      message: '1 of 2 reads answering 404 could be taken for a 404 from a router or proxy',
      evidence: [{ note: 'the 404 to the read of "not-a-uuid" has content type text/plain' }],
    });
  });
});

describe('operation.malformed-id at its edges', () => {
  it('takes a timeout for no answer, and names how long it waited when the id stays silent', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 5, status: 404, body: {} });
    const hangs = [0, 1000, 2000].map((at) => b.read('not-a-uuid', { at, took: 10_000, error: { kind: 'timeout', message: 'no answer' }, tag: 'read-malformed' }));
    b.read('a%2Fb', { status: 400, body: {}, tag: 'read-malformed' });
    const judgement = operationMalformedId.judge(b.transcript, context());
    expect(judgement).toMatchObject({
      outcome: 'broken',
      message: '1 malformed id answered nothing but 5xx or no answer, while reads of known operations answered 404',
      count: 1,
    });
    expect(judgement.outcome === 'broken' && judgement.evidence[0]).toEqual({
      note: 'every read of the malformed id "not-a-uuid" failed transiently (3 reads over 12.0s: 3×timeout), while 1 read of known operations made meanwhile answered 404',
      exchanges: [...hangs.map((read) => read.seq), 2],
    });
  });
});
