import { describe, expect, it } from 'vitest';
import { operationUnknown404 } from '../../src/rules/catalog/operation-probes.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { evidenceOf } from './operation-fixtures.js';

/** operation.unknown-404 when no read of an unknown id was answered: 5xx, timeouts and refused connections only. */

const UNKNOWN_A = '0b7e4c1a-2f3d-4a5b-8c6d-7e8f9a0b1c2d';
const UNKNOWN_B = '9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a';
const NOT_FOUND = { error: 'unknown operation' };
const CRASH = { error: 'could not look up the operation' };

/** An apply answered 202 at 0 ms, and polls of it at 5, 1005 and 2005 ms with `status` (200: in_progress, then final). */
function polledOperation(status = 200): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
  b.read(OP_ID, { at: 5, status, body: status === 200 ? IN_PROGRESS : '' });
  b.read(OP_ID, { at: 1005, status, body: status === 200 ? IN_PROGRESS : '' });
  b.read(OP_ID, { at: 2005, status, body: status === 200 ? shopDbFinal() : '' });
  return b;
}

/** Three reads of `id`, one poll interval (1 s in the test context) apart, from `from` ms. */
function readThrice(b: TranscriptBuilder, id: string, status: number, from = 0) {
  return [0, 1000, 2000].map((offset) => b.read(id, { at: from + offset, status, body: CRASH, tag: 'read-unknown' }));
}

describe('operation.unknown-404 when unknown ids answer only 5xx', () => {
  it('is broken when each id answered 500 over two poll intervals while known operations answered 200', () => {
    const b = polledOperation();
    const a = readThrice(b, UNKNOWN_A, 500);
    const c = readThrice(b, UNKNOWN_B, 500, 10);
    const judgement = operationUnknown404.judge(b.transcript, context());
    expect(judgement).toMatchObject({
      outcome: 'broken',
      count: 2,
      message:
        'every read of an unknown id answered 500 (6 reads over 2.0s), while reads of known operations answered 200: the control plane would wait out the deadline for lost work instead of failing it at once',
    });
    const [first, second] = evidenceOf(judgement);
    expect(first).toEqual({
      note: `every read of the unknown id "${UNKNOWN_A}" answered 500 (3 reads over 2.0s), while 3 reads of known operations made meanwhile answered 200`,
      exchanges: [...a.map((e) => e.seq), 2],
    });
    expect(second!.exchanges.slice(0, 3)).toEqual(c.map((e) => e.seq));
  });

  it('says which failures mixed, and which answers the known reads got', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 5, body: IN_PROGRESS });
    b.read(OP_ID, { at: 1005, status: 404, body: NOT_FOUND });
    b.read(UNKNOWN_A, { at: 0, status: 503, body: '', tag: 'read-unknown' });
    b.read(UNKNOWN_A, { at: 1000, error: { kind: 'timeout', message: 'timed out' }, tag: 'read-unknown' });
    b.read(UNKNOWN_A, { at: 2000, status: 503, body: '', tag: 'read-unknown' });
    expect(operationUnknown404.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      message: expect.stringMatching(
        /^every read of an unknown id failed transiently \(3 reads over 2\.0s: 2×503, 1×timeout\), while reads of known operations were answered \(1×200, 1×404\): /,
      ),
    });
  });

  it('is not exercised when the known operations failed the same way meanwhile: the provisioner was down', () => {
    const b = polledOperation(503);
    readThrice(b, UNKNOWN_A, 500);
    expect(operationUnknown404.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message:
        'every read of an unknown id answered 500 (3 reads over 2.0s), and so did every read of a known operation made meanwhile: the provisioner looked down, which says nothing about unknown ids',
    });
  });

  it('is not exercised when no operation of its own was read while the unknown ids were', () => {
    const none = new TranscriptBuilder();
    readThrice(none, UNKNOWN_A, 500);
    const later = polledOperation();
    readThrice(later, UNKNOWN_A, 500, 5000);
    for (const b of [none, later]) {
      expect(operationUnknown404.judge(b.transcript, context())).toEqual({
        outcome: 'not-exercised',
        message: `every read of an unknown id answered 500 (3 reads over 2.0s), and no operation of the provisioner's own was read meanwhile: nothing shows it answers any read`,
      });
    }
  });

  it('is not exercised when no id was read three times over two poll intervals', () => {
    const twice = polledOperation();
    twice.read(UNKNOWN_A, { at: 0, status: 500, body: CRASH, tag: 'read-unknown' });
    twice.read(UNKNOWN_A, { at: 1000, status: 500, body: CRASH, tag: 'read-unknown' });
    const quickly = polledOperation();
    for (const at of [0, 10, 20]) quickly.read(UNKNOWN_A, { at, status: 500, body: CRASH, tag: 'read-unknown' });
    expect(operationUnknown404.judge(twice.transcript, context())).toMatchObject({
      outcome: 'not-exercised',
      message: expect.stringContaining('no unknown id was read 3 times over two poll intervals'),
    });
    expect(operationUnknown404.judge(quickly.transcript, context())).toMatchObject({ outcome: 'not-exercised' });
  });

  it('holds by the 404 of one id while another answered only 500', () => {
    const b = polledOperation();
    readThrice(b, UNKNOWN_A, 500);
    b.read(UNKNOWN_B, { at: 0, status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    b.read(UNKNOWN_B, { at: 10, status: 404, body: NOT_FOUND, tag: 'read-unknown' });
    expect(operationUnknown404.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 reads of 1 unknown id, all answered 404; 3 more failed transiently and say nothing',
    });
  });
});
