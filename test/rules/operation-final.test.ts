import { describe, expect, it } from 'vitest';
import { operationFinalRetained, operationFinalStable, operationNoInProgressAfterFinal, RULES } from '../../src/rules/catalog/operation-final.js';
import { operationNotLost } from '../../src/rules/catalog/operation-lifecycle.js';
import { IN_PROGRESS, OP_ID, context, shopDbFinal } from '../support/transcript-builder.js';
import { accepted, evidenceOf, finished } from './operation-fixtures.js';
import { theContractsRules } from '../support/contract-rules.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';

theContractsRules(RULES, [
  ['operation.no-in-progress-after-final', 'MUST'],
  ['operation.final-stable', 'MUST'],
  ['operation.final-retained', 'ADVICE'],
]);

/** A final answer with two results, to show that order and descriptions do not matter. */
function twoResults(order: 'ab' | 'ba', description: string): Record<string, unknown> {
  const a = { id: 'a', environment: 'test', outcome: 'succeeded', description, outputs: { url: 'x', size: 1 } };
  const b = { id: 'b', environment: 'test', outcome: 'succeeded', description };
  return { outcome: 'succeeded', description, results: order === 'ab' ? [a, b] : [b, a] };
}

describe('operation.no-in-progress-after-final', () => {
  it('holds when reads after the final answer give it again', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, body: shopDbFinal(), tag: 'read-after-final' });
    b.read(OP_ID, { at: 2005, body: shopDbFinal(), tag: 'read-after-final' });
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 reads sent after the final answer of 1 operation, none said in_progress',
    });
  });

  it('is broken by an in_progress answer to a read sent after the final answer arrived', () => {
    const { b, final } = finished();
    const relapse = b.read(OP_ID, { at: 1405, body: IN_PROGRESS, tag: 'read-after-final' });
    const judgement = operationNoInProgressAfterFinal.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1 });
    expect(evidenceOf(judgement)).toEqual([
      { note: 'read sent 400ms after the first final answer arrived said in_progress', exchanges: [relapse.seq, final.seq] },
    ]);
  });

  it('does not blame reads sent before the final answer arrived, even when their in_progress answer arrives later', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const final = b.read(OP_ID, { at: 1000, took: 20, body: shopDbFinal() });
    // Sent together with the final poll, answered after the final answer arrived.
    const slow = b.read(OP_ID, { at: 1000, took: 100, body: IN_PROGRESS, tag: 'read-concurrent' });
    // Sent after the final read was sent, answered before the final answer arrived.
    b.read(OP_ID, { at: 1010, took: 5, body: IN_PROGRESS, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1021, body: shopDbFinal(), tag: 'read-after-final' });
    expect(slow.endedAt).toBeGreaterThan(final.endedAt);
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context())).toMatchObject({ outcome: 'held', message: expect.stringContaining('1 read sent after') });
  });

  it('blames a read sent the moment the final answer arrived', () => {
    const b = accepted();
    const final = b.read(OP_ID, { at: 1000, took: 20, body: shopDbFinal() });
    const late = b.read(OP_ID, { at: 1020, took: 1, body: IN_PROGRESS, tag: 'read-concurrent' });
    expect(evidenceOf(operationNoInProgressAfterFinal.judge(b.transcript, context()))).toEqual([
      { note: 'read sent 0ms after the first final answer arrived said in_progress', exchanges: [late.seq, final.seq] },
    ]);
  });

  it('holds for a provisioner that forgets the operation after its final answer', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, status: 404, body: { error: 'unknown operation' }, tag: 'read-after-final' });
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context())).toMatchObject({ outcome: 'held' });
  });

  it('is not exercised without a final answer, or without a read after it', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no operation gave a final answer' });
    expect(operationNoInProgressAfterFinal.judge(finished().b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no read was sent after a final answer arrived',
    });
  });
});

describe('operation.final-stable', () => {
  it('ignores descriptions and the order of results', () => {
    const { b } = finished(twoResults('ab', 'Done.'));
    b.read(OP_ID, { at: 1005, body: twoResults('ba', 'Done a while ago.'), tag: 'read-after-final' });
    b.read(OP_ID, { at: 2005, status: 404, body: {}, tag: 'read-after-final' });
    expect(operationFinalStable.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 later answers of 1 operation repeated the first final answer or were 404',
    });
  });

  it('is broken by an outcome that flips', () => {
    const { b, final } = finished();
    const flipped = b.read(OP_ID, { at: 1006, body: shopDbFinal('failed'), tag: 'read-after-final' });
    const judgement = operationFinalStable.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1 });
    expect(evidenceOf(judgement)).toEqual([
      {
        note: 'read sent 1ms after the first final answer arrived gave another final answer: outcome succeeded became failed; result shop-db in test outcome succeeded became failed',
        exchanges: [flipped.seq, final.seq],
      },
    ]);
  });

  it('is broken by changed outputs, and names the output but not its value', () => {
    const { b } = finished();
    const changed = shopDbFinal();
    changed.results = [{ id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'Handled shop-db.', outputs: { url: 'secret-y' } }];
    b.read(OP_ID, { at: 2005, body: changed, tag: 'read-after-final' });
    const notes = evidenceOf(operationFinalStable.judge(b.transcript, context())).map((e) => e.note);
    expect(notes).toEqual(['read sent 1.0s after the first final answer arrived gave another final answer: result shop-db in test outputs changed: url']);
  });

  it('compares a concurrent final answer with the first one received', () => {
    const b = accepted();
    const first = b.read(OP_ID, { at: 1000, took: 5, body: shopDbFinal() });
    const other = b.read(OP_ID, { at: 1001, took: 50, body: shopDbFinal('failed'), tag: 'read-concurrent' });
    const judgement = operationFinalStable.judge(b.transcript, context());
    expect(evidenceOf(judgement)[0]).toMatchObject({ note: expect.stringMatching(/^read sent 4ms before the first final answer arrived/), exchanges: [other.seq, first.seq] });
  });

  it('is broken by a status other than 200 or 404 after the final answer', () => {
    const { b, final } = finished();
    const gone = b.read(OP_ID, { at: 1005, status: 410, body: {}, tag: 'read-after-final' });
    expect(evidenceOf(operationFinalStable.judge(b.transcript, context()))).toEqual([
      { note: 'read sent 0ms after the first final answer arrived answered 410; after a final answer only the same answer or 404 may come', exchanges: [gone.seq, final.seq] },
    ]);
  });

  it('leaves in_progress after the final answer to another rule and skips transient answers', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, body: IN_PROGRESS, tag: 'read-after-final' });
    b.read(OP_ID, { at: 2005, status: 502, body: 'Bad Gateway', contentType: 'text/plain', tag: 'read-after-final' });
    expect(operationFinalStable.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no read after a final answer gave an answer to compare with it',
    });
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context())).toMatchObject({ outcome: 'broken' });
  });

  it('is not exercised without a final answer', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    expect(operationFinalStable.judge(b.transcript, context())).toMatchObject({ outcome: 'not-exercised' });
  });
});
describe('operation.final-retained', () => {
  it('holds when the reads after the final answer get it again', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, body: shopDbFinal(), tag: 'read-after-final' });
    b.read(OP_ID, { at: 2005, body: { ...shopDbFinal(), description: 'Still done.' }, tag: 'read-after-final' });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '2 reads after a final answer got the same final answer again' });
  });

  it('says which reads after the final answer showed nothing: only transient failures, or only other answers', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, status: 503, body: { error: 'busy' }, tag: 'read-after-final' });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'of 1 read sent after a final answer arrived, 1 failed transiently: none showed whether the answer was kept',
    });
    const other = finished().b;
    other.read(OP_ID, { at: 1005, body: IN_PROGRESS, tag: 'read-after-final' });
    expect(operationFinalRetained.judge(other.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message:
        'of 1 read sent after a final answer arrived, 1 answered 200 with another answer (operation.no-in-progress-after-final and operation.final-stable judge those): none showed whether the answer was kept',
    });
  });

  it('leaves the late reads, long after the final answer, out: a provisioner may fairly have forgotten by then', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, body: shopDbFinal(), tag: 'read-after-final' });
    b.read(OP_ID, { at: 600_000, status: 404, body: { error: 'unknown' }, tag: 'read-after-final', suite: SITUATION_SUITES.lateReads });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '1 read after a final answer got the same final answer again' });
  });

  it('advises against forgetting at once, while a forgetting provisioner passes the MUST rules', () => {
    const { b, final } = finished();
    const atOnce = b.read(OP_ID, { at: 1005, status: 404, body: {}, tag: 'read-after-final' });
    const later = b.read(OP_ID, { at: 2005, status: 404, body: {}, tag: 'read-after-final' });
    const judgement = operationFinalRetained.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 2 });
    expect(evidenceOf(judgement)).toEqual([
      { note: 'forgotten 0ms after the final answer: a final answer lost on the network would turn into a failure', exchanges: [atOnce.seq, final.seq] },
      { note: 'forgotten 1.0s after the final answer: a final answer lost on the network would turn into a failure', exchanges: [later.seq, final.seq] },
    ]);
    expect(operationNotLost.judge(b.transcript, context()).outcome).toBe('held');
    expect(operationFinalStable.judge(b.transcript, context()).outcome).toBe('held');
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context()).outcome).toBe('held');
  });

  it('leaves transient, in_progress and changed answers to other rules, and counts them in its reason', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, status: 503, body: '', tag: 'read-after-final' });
    b.read(OP_ID, { at: 1006, body: IN_PROGRESS, tag: 'read-after-final' });
    b.read(OP_ID, { at: 1007, body: shopDbFinal('failed'), tag: 'read-after-final' });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message:
        'of 3 reads sent after a final answer arrived, 1 failed transiently and 2 answered 200 with another answer (operation.no-in-progress-after-final and operation.final-stable judge those): none showed whether the answer was kept',
    });
  });

  it('is broken by any other status than the final answer again to a read after it, a 410 as much as a 404', () => {
    const { b, final } = finished();
    const gone = b.read(OP_ID, { at: 1005, status: 410, body: { error: 'gone' }, tag: 'read-after-final' });
    const judgement = operationFinalRetained.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1 });
    expect(evidenceOf(judgement)).toEqual([
      { note: 'answered 410 0ms after the final answer instead of giving it again: a final answer lost on the network would turn into a failure', exchanges: [gone.seq, final.seq] },
    ]);
    expect(operationFinalStable.judge(b.transcript, context()).outcome).toBe('broken');
  });

  it('counts reads of the control plane itself sent after the final answer arrived, whatever their tag', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1010, body: shopDbFinal() });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '1 read after a final answer got the same final answer again' });
  });

  it('is not exercised without a final answer', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    expect(operationFinalRetained.judge(b.transcript, context())).toMatchObject({ outcome: 'not-exercised' });
  });
});
