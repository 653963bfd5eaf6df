import { describe, expect, it } from 'vitest';
import { operationNotLost, operationWithinMaxDuration, RULES } from '../../src/rules/catalog/operation-lifecycle.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { accepted, evidenceOf, finished } from './operation-fixtures.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['operation.not-lost', 'MUST'],
  ['operation.within-max-duration', 'MUST'],
]);

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
      {
        note: 'no final answer by the deadline of PT1S: the last read before it, sent 5ms after the 202, answered in_progress, and the first final answer came to a read sent 2.0s after the 202',
        exchanges: [2, final.seq, 1],
      },
    ]);
  });

  it('is broken by a read sent after the deadline that answered in_progress, and names that read', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const late = b.read(OP_ID, { at: 90_000, body: IN_PROGRESS });
    b.read(OP_ID, { at: 100_000, body: shopDbFinal() });
    const judgement = operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: { ms: 60_000, text: 'PT1M', source: 'flag' } }));
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1 });
    expect(evidenceOf(judgement)).toEqual([
      { note: 'a read sent 1m30s after the 202, past the deadline of PT1M, answered in_progress: the work had not ended by the deadline', exchanges: [late.seq, 1] },
    ]);
  });

  it('does not blame a final answer that came to a late read after a gap the reader left: when the work ended is not known', () => {
    // In progress 3 s after the 202, then nobody read for over two minutes: the work may have ended at once.
    const b = accepted();
    b.read(OP_ID, { at: 3000, body: IN_PROGRESS });
    b.read(OP_ID, { at: 147_000, body: shopDbFinal() });
    const twoMinutes = context({ maxOperationDuration: { ms: 120_000, text: 'PT2M', source: 'flag' } });
    const judgement = operationWithinMaxDuration.judge(b.transcript, twoMinutes);
    expect(judgement.outcome).toBe('not-exercised');
    expect(judgement.message).toBe(
      `1 operation not judged, as the reads left a gap around the deadline (operation "${OP_ID}": its work ended between the read sent 3.0s after the 202 (which answered in_progress) and the read sent 2m27s after it, which got the final answer; the deadline of PT2M fell in that gap, when nobody read it, so whether the work ended in time is not known); none was judged against PT2M (given by --max-operation-duration)`,
    );
  });

  it('judges the operations whose reads prove something, and says which it could not judge', () => {
    const b = accepted();
    b.read(OP_ID, { at: 3000, body: IN_PROGRESS });
    b.read(OP_ID, { at: 147_000, body: shopDbFinal() });
    const other = '0b7c1f0e-4a47-4b8e-9d36-2f1f3b0c9a11';
    b.post('apply', { at: 0, status: 202, body: { operationId: other } });
    b.read(other, { at: 1000, body: IN_PROGRESS });
    b.read(other, { at: 2000, body: shopDbFinal() });
    const judgement = operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: { ms: 120_000, text: 'PT2M', source: 'flag' } }));
    expect(judgement.outcome).toBe('held');
    expect(judgement.message).toMatch(/^1 operation gave a final answer within PT2M \(given by --max-operation-duration\); the slowest took 2\.0s; 1 operation not judged, as the reads left a gap around the deadline/);
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
      {
        note: 'no final answer within PT1.5S of the 202: reads went on up to the deadline and none got one; the last read before it, sent 1.0s after the 202, answered in_progress',
        exchanges: [last.seq, 1],
      },
    ]);
  });

  it('names the reads that went unanswered up to the deadline', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const last = b.read(OP_ID, { at: 1010, status: 502, body: {} });
    b.pollEnded(OP_ID, 1, 'deadline', 1505);
    const judgement = operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: { ms: 1500, text: 'PT1.5S', source: 'flag' } }));
    expect(evidenceOf(judgement)[0]!.note).toMatch(/the last read before it, sent 1\.0s after the 202, (was )?answered 502/);
    expect(evidenceOf(judgement)[0]!.exchanges).toEqual([last.seq, 1]);
  });

  it('does not blame the deadline when the reads had stopped long before it', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.pollEnded(OP_ID, 1, 'deadline', 60_005);
    const judgement = operationWithinMaxDuration.judge(b.transcript, context({ maxOperationDuration: { ms: 60_000, text: 'PT1M', source: 'flag' } }));
    expect(judgement.outcome).toBe('not-exercised');
    expect(judgement.message).toMatch(/the last read before the deadline was sent \d+ms after the 202, more than a poll interval before it: whether the work would have ended in time is not known/);
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
