import { describe, expect, it } from 'vitest';
import { operationNotLost, operationWithinMaxDuration } from '../../src/rules/catalog/operation-lifecycle.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { accepted, evidenceOf, finished } from './operation-fixtures.js';

describe('operation.not-lost', () => {
  it('holds when no read before the final answer answers 404', () => {
    const { b } = finished();
    expect(operationNotLost.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 operation read 2 times; none answered 404 before its final answer',
    });
  });

  it('is broken by a 404 to the read made at once after the 202', () => {
    const b = accepted();
    const lost = b.read(OP_ID, { at: 5, status: 404, body: {} });
    const judgement = operationNotLost.judge(b.transcript, context());
    expect(judgement).toMatchObject({
      outcome: 'broken',
      count: 1,
      message: '1 operation was lost before a final answer: the control plane would fail this work at once',
    });
    expect(evidenceOf(judgement)).toEqual([
      { note: 'read sent 0ms after the 202 answered 404 before any final answer: the control plane would fail this work at once', exchanges: [lost.seq, 1] },
    ]);
  });

  it('is broken by a 404 that ended before the final read was sent', () => {
    const { b } = finished();
    const early = b.read(OP_ID, { at: 900, took: 50, status: 404, body: {}, tag: 'read-concurrent' });
    expect(evidenceOf(operationNotLost.judge(b.transcript, context())).map((e) => e.exchanges)).toEqual([[early.seq, 1]]);
  });

  it('does not blame a concurrent 404 that may have reached the provisioner after its final answer', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 1000, took: 20, body: shopDbFinal() });
    b.read(OP_ID, { at: 990, took: 15, status: 404, body: {}, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1000, took: 30, status: 404, body: {}, tag: 'read-concurrent' });
    expect(operationNotLost.judge(b.transcript, context())).toMatchObject({ outcome: 'held' });
  });

  it('holds for a provisioner that forgets the operation after its final answer', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, status: 404, body: {}, tag: 'read-after-final' });
    expect(operationNotLost.judge(b.transcript, context())).toMatchObject({ outcome: 'held' });
  });

  it('is not exercised when no operation was read', () => {
    expect(operationNotLost.judge(accepted().transcript, context())).toEqual({ outcome: 'not-exercised', message: '1 operation was accepted but never read' });
    const plain = new TranscriptBuilder();
    plain.post('plan', { status: 200, body: shopDbFinal() });
    expect(operationNotLost.judge(plain.transcript, context())).toMatchObject({ outcome: 'not-applicable', message: expect.stringContaining('answered 200 at once: no operation to read') });
    expect(operationNotLost.judge(new TranscriptBuilder().transcript, context())).toMatchObject({ outcome: 'not-exercised', message: expect.stringContaining('never answered 202') });
  });
});

describe('operation.within-max-duration', () => {
  it('holds within the default PT30M, and says why PT30M was used', () => {
    const { b } = finished();
    expect(operationWithinMaxDuration.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 operation gave a final answer within PT30M, used because no maxOperationDuration was given; the slowest took 995ms',
    });
  });

  it('is broken when the first final answer is asked for after maxOperationDuration', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const final = b.read(OP_ID, { at: 2005, body: shopDbFinal() });
    b.read(OP_ID, { at: 2010, body: shopDbFinal(), tag: 'read-after-final' });
    const registered = context({ maxOperationDuration: { ms: 1000, text: 'PT1S', source: 'registration' } });
    const judgement = operationWithinMaxDuration.judge(b.transcript, registered);
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1, message: '1 of 1 operation gave no final answer within PT1S (maxOperationDuration of the registration)' });
    expect(evidenceOf(judgement)).toEqual([
      { note: 'the first final answer came to a read sent 2.0s after the 202, more than PT1S', exchanges: [final.seq, 1] },
    ]);
  });

  it('judges by when the final read was sent, not when its answer arrived', () => {
    const b = accepted();
    b.read(OP_ID, { at: 900, took: 500, body: shopDbFinal() });
    const flag = context({ maxOperationDuration: { ms: 1000, text: 'PT1S', source: 'flag' } });
    expect(operationWithinMaxDuration.judge(b.transcript, flag)).toMatchObject({ outcome: 'held', message: expect.stringContaining('PT1S (given by --max-operation-duration)') });
  });

  it('is broken when polling stopped at the deadline', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const last = b.read(OP_ID, { at: 1010, body: IN_PROGRESS });
    b.pollEnded(OP_ID, 1, 'deadline', 1505);
    const judgement = operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: { ms: 1500, text: 'PT1.5S', source: 'flag' } }));
    expect(evidenceOf(judgement)).toEqual([
      { note: 'no final answer within PT1.5S of the 202: polling stopped at the deadline, 1.5s after the 202', exchanges: [last.seq, 1] },
    ]);
  });

  it('does not judge lost or aborted operations', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, status: 404, body: {} });
    b.pollEnded(OP_ID, 1, 'lost', 20);
    expect(operationWithinMaxDuration.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no operation reached a final answer or the deadline, so none was judged against PT30M, used because no maxOperationDuration was given',
    });
  });
});
