import { describe, expect, it } from 'vitest';
import { operationNotLost, operationWithinMaxDuration } from '../../src/rules/catalog/operation-lifecycle.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { accepted, evidenceOf } from './operation-fixtures.js';

/** The lifecycle rules at their edges: values exactly at a limit, two operations in one transcript, reads with no response. */

const OTHER_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const THIRD_ID = '7d8e9f0a-1b2c-4d3e-8f4a-5b6c7d8e9f0a';
const PT1S = { ms: 1000, text: 'PT1S', source: 'flag' } as const;

/** Two accepted operations: OP_ID is seq 1 (its 202 ends at 5 ms), OTHER_ID is seq 2 (ends at 15 ms). */
function twoAccepted(): TranscriptBuilder {
  const b = accepted();
  b.post('plan', { at: 10, status: 202, body: { operationId: OTHER_ID } });
  return b;
}

describe('operation.not-lost at its edges', () => {
  it('blames a 404 that ended exactly when the final read was sent, not one that ended a millisecond later', () => {
    const b = accepted();
    const exact = b.read(OP_ID, { at: 900, took: 100, status: 404, body: {}, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 901, took: 100, status: 404, body: {}, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1000, body: shopDbFinal() });
    expect(evidenceOf(operationNotLost.judge(b.transcript, context())).map((e) => e.exchanges)).toEqual([[exact.seq, 1]]);
  });

  it('counts lost operations, not lost reads, and names the 202 of each', () => {
    const b = twoAccepted();
    const a1 = b.read(OP_ID, { at: 20, status: 404, body: {} });
    const a2 = b.read(OP_ID, { at: 30, status: 404, body: {}, tag: 'read-concurrent' });
    const judgement = operationNotLost.judge(b.transcript, context());
    expect(judgement).toMatchObject({
      outcome: 'broken',
      count: 2,
      message: '1 operation was lost before a final answer: the control plane would fail this work at once',
    });
    expect(evidenceOf(judgement).map((e) => e.exchanges)).toEqual([
      [a1.seq, 1],
      [a2.seq, 1],
    ]);
    const other = b.read(OTHER_ID, { at: 40, status: 404, body: {} });
    const both = operationNotLost.judge(b.transcript, context());
    expect(both).toMatchObject({ count: 3, message: '2 operations were lost before a final answer: the control plane would fail this work at once' });
    expect(evidenceOf(both)[2]!.exchanges).toEqual([other.seq, 2]);
  });

  it('counts only operations that were read, and reads with no response are no 404', () => {
    const b = twoAccepted();
    b.read(OP_ID, { at: 20, error: { kind: 'timeout', message: 'no answer' } });
    b.read(OP_ID, { at: 30, status: 500, body: '' });
    b.read(OP_ID, { at: 40, body: IN_PROGRESS });
    expect(operationNotLost.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 operation read 3 times; none answered 404 before its final answer',
    });
    b.read(OTHER_ID, { at: 50, body: shopDbFinal() });
    expect(operationNotLost.judge(b.transcript, context())).toMatchObject({ message: '2 operations read 4 times; none answered 404 before its final answer' });
  });

  it('says how many operations were accepted but never read', () => {
    expect(operationNotLost.judge(twoAccepted().transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: '2 operations were accepted but never read',
    });
  });
});

describe('operation.within-max-duration at its edges', () => {
  it('holds for a final read sent exactly maxOperationDuration after the 202, not a millisecond later', () => {
    const exact = accepted();
    exact.read(OP_ID, { at: 10, body: IN_PROGRESS });
    exact.read(OP_ID, { at: 1005, body: shopDbFinal() });
    expect(operationWithinMaxDuration.judge(exact.transcript, context({ maxOperationDuration: PT1S }))).toEqual({
      outcome: 'held',
      message: '1 operation gave a final answer within PT1S (given by --max-operation-duration); the slowest took 1.0s',
    });
    const late = accepted();
    late.read(OP_ID, { at: 10, body: IN_PROGRESS });
    late.read(OP_ID, { at: 1006, body: shopDbFinal() });
    expect(operationWithinMaxDuration.judge(late.transcript, context({ maxOperationDuration: PT1S }))).toMatchObject({ outcome: 'broken', count: 1 });
  });

  it('takes the final read sent first, even when its answer was received second', () => {
    const b = accepted();
    const working = b.read(OP_ID, { at: 300, body: IN_PROGRESS });
    const sentFirst = b.read(OP_ID, { at: 1100, took: 500, body: shopDbFinal() });
    b.read(OP_ID, { at: 1200, took: 5, body: shopDbFinal(), tag: 'read-concurrent' });
    const judgement = operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: PT1S }));
    expect(evidenceOf(judgement)).toEqual([
      {
        note: 'no final answer by the deadline of PT1S: the last read before it, sent 295ms after the 202, answered in_progress, and the first final answer came to a read sent 1.1s after the 202',
        exchanges: [working.seq, sentFirst.seq, 1],
      },
    ]);
  });

  it('names the slowest of several operations, and counts the late ones among all judged', () => {
    const b = twoAccepted();
    b.read(OP_ID, { at: 305, body: shopDbFinal() });
    b.read(OTHER_ID, { at: 100, body: IN_PROGRESS });
    b.read(OTHER_ID, { at: 815, body: shopDbFinal() });
    expect(operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: PT1S }))).toMatchObject({
      outcome: 'held',
      message: '2 operations gave a final answer within PT1S (given by --max-operation-duration); the slowest took 800ms',
    });
    const tight = context({ maxOperationDuration: { ms: 500, text: 'PT0.5S', source: 'registration' } });
    expect(operationWithinMaxDuration.judge(b.transcript, tight)).toMatchObject({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 operations gave no final answer within PT0.5S (maxOperationDuration of the registration)',
    });
  });

  it("does not take another operation's deadline for this one", () => {
    const b = twoAccepted();
    b.read(OP_ID, { at: 20, body: IN_PROGRESS });
    const last = b.read(OTHER_ID, { at: 30, body: IN_PROGRESS });
    // OP_ID stopped without a verdict (the run was stopped); OTHER_ID ran into the deadline.
    b.pollEnded(OP_ID, 1, 'aborted', 1000);
    b.pollEnded(OTHER_ID, 2, 'deadline', 1015);
    const judgement = operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: PT1S }));
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1, message: '1 of 1 operation gave no final answer within PT1S (given by --max-operation-duration)' });
    expect(evidenceOf(judgement)).toEqual([
      {
        note: 'no final answer within PT1S of the 202: reads went on up to the deadline and none got one; the last read before it, sent 15ms after the 202, answered in_progress',
        exchanges: [last.seq, 2],
      },
    ]);
  });

  it('takes the deadline that a following of the id ended at, even after another following of it ended otherwise', () => {
    const b = accepted();
    const last = b.read(OP_ID, { at: 20, body: IN_PROGRESS });
    // The same id accepted again (accepted.operation-id-unique's fault): one following stopped, the other met the deadline.
    b.pollEnded(OP_ID, 1, 'aborted', 900);
    b.pollEnded(OP_ID, 1, 'deadline', 1005);
    const judgement = operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: PT1S, pollIntervalMs: 1000 }));
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1 });
    expect(evidenceOf(judgement).map((e) => e.exchanges)).toEqual([[last.seq, 1]]);
  });

  it('blames no deadline on an operation that was never read before it: the reader left the gap', () => {
    const b = accepted();
    b.pollEnded(OP_ID, 1, 'deadline', 1005);
    expect(operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: PT1S }))).toMatchObject({
      outcome: 'not-exercised',
      message: expect.stringContaining('no final answer came, but no read was sent before the deadline, more than a poll interval before it'),
    });
  });

  it('counts the operations left unjudged by a gap, names the first, and says when there are others', () => {
    const b = twoAccepted();
    b.read(OP_ID, { at: 305, body: shopDbFinal() });
    b.pollEnded(OTHER_ID, 2, 'deadline', 1015);
    const gap = 'no final answer came, but no read was sent before the deadline, more than a poll interval before it: whether the work would have ended in time is not known';
    const pt1s = context({ maxOperationDuration: PT1S });
    expect(operationWithinMaxDuration.judge(b.transcript, pt1s)).toEqual({
      outcome: 'held',
      message: `1 operation gave a final answer within PT1S (given by --max-operation-duration); the slowest took 300ms; 1 operation not judged, as the reads left a gap around the deadline (operation "${OTHER_ID}": ${gap})`,
    });
    b.post('plan', { at: 20, status: 202, body: { operationId: THIRD_ID } });
    b.pollEnded(THIRD_ID, 3, 'deadline', 1025);
    expect(operationWithinMaxDuration.judge(b.transcript, pt1s)).toEqual({
      outcome: 'held',
      message: `1 operation gave a final answer within PT1S (given by --max-operation-duration); the slowest took 300ms; 2 operations not judged, as the reads left a gap around the deadline (operation "${OTHER_ID}": ${gap}; and others like it)`,
    });
  });

  it('is not exercised without an accepted operation, and not applicable when every call was answered at once', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 202, body: {} });
    expect(operationWithinMaxDuration.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'the provisioner never answered 202 with an operationId, so no operation was timed',
    });
    const atOnce = new TranscriptBuilder();
    atOnce.post('plan', { status: 200, body: shopDbFinal() });
    expect(operationWithinMaxDuration.judge(atOnce.transcript, context())).toEqual({
      outcome: 'not-applicable',
      message: 'the one plan or apply call was answered 200 at once: no operation to time',
    });
  });
});
