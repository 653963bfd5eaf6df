import { describe, expect, it } from 'vitest';
import { canonicalJson, finalDifferences, finalState } from '../../src/rules/support/final-equality.js';
import { operationFinalRetained, operationFinalStable, operationNoInProgressAfterFinal } from '../../src/rules/catalog/operation-final.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { accepted, evidenceOf, finished } from './operation-fixtures.js';

/**
 * The rules about final answers at their edges: a later answer that drops or adds a result, outputs in
 * another key order, a final answer received first but sent second, two operations in one transcript,
 * and reads that got no response at all.
 */

const OTHER_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

interface Result {
  id: string;
  environment?: string;
  outcome?: string;
  outputs?: unknown;
}

function answer(results: unknown[], outcome = 'succeeded'): Record<string, unknown> {
  return { outcome, description: 'Done.', results };
}

function result({ id, environment = 'test', outcome = 'succeeded', outputs }: Result): Record<string, unknown> {
  return { id, environment, outcome, description: `Handled ${id}.`, ...(outputs === undefined ? {} : { outputs }) };
}

/** The note final-stable writes for a read after the final one of `finished()`, sent at 1005 ms. */
function stableNotes(first: Record<string, unknown>, later: Record<string, unknown>): string[] {
  const { b } = finished(first);
  b.read(OP_ID, { at: 1005, body: later, tag: 'read-after-final' });
  return evidenceOf(operationFinalStable.judge(b.transcript, context())).map((e) => e.note);
}

const AFTER = 'read sent 0ms after the first final answer arrived gave another final answer: ';

describe('final answers compared', () => {
  it('names a result that a later final answer drops, and one that it adds', () => {
    const both = answer([result({ id: 'a' }), result({ id: 'b' })]);
    const onlyA = answer([result({ id: 'a' })]);
    expect(stableNotes(both, onlyA)).toEqual([`${AFTER}result b in test disappeared`]);
    expect(stableNotes(onlyA, both)).toEqual([`${AFTER}result b in test appeared`]);
  });

  it('lists the differences in the order of the results by id, whatever order the answers gave them in', () => {
    const first = answer([result({ id: 'c' }), result({ id: 'a' }), result({ id: 'b' })]);
    const later = answer([result({ id: 'd' }), result({ id: 'b' })]);
    expect(stableNotes(first, later)).toEqual([`${AFTER}result a in test disappeared; result c in test disappeared; result d in test appeared`]);
  });

  it('tells results apart by environment as well as id', () => {
    const test = answer([result({ id: 'a', environment: 'test' })]);
    const prod = answer([result({ id: 'a', environment: 'prod' })]);
    expect(stableNotes(test, prod)).toEqual([`${AFTER}result a in test disappeared; result a in prod appeared`]);
  });

  it('tells apart a slash in the id from one in the environment, whatever order the results come in', () => {
    const replica = result({ id: 'shop-db/replica', environment: 'prod', outputs: { password: 'p1' } });
    const inReplicaProd = result({ id: 'shop-db', environment: 'replica/prod', outputs: { password: 'p2' } });
    expect(stableNotes(answer([replica, inReplicaProd]), answer([inReplicaProd, replica]))).toEqual([]);
    const changed = result({ id: 'shop-db', environment: 'replica/prod', outputs: { password: 'p3' } });
    expect(stableNotes(answer([replica, inReplicaProd]), answer([changed, replica]))).toEqual([`${AFTER}result shop-db in replica/prod outputs changed: password`]);
  });

  it('takes outputs whose keys come back in another order as the same, at any depth', () => {
    const first = answer([result({ id: 'a', outputs: { url: 'x', size: 1, tags: { b: 2, a: 1 }, list: [{ y: 1, x: 2 }] } })]);
    const later = answer([result({ id: 'a', outputs: { list: [{ x: 2, y: 1 }], tags: { a: 1, b: 2 }, size: 1, url: 'x' } })]);
    expect(stableNotes(first, later)).toEqual([]);
  });

  it('names every changed output, added and removed ones too, in order and without values', () => {
    const first = answer([result({ id: 'a', outputs: { url: 'x', size: 1, zone: 'eu' } })]);
    const later = answer([result({ id: 'a', outputs: { url: 'y', zone: 'eu', port: 5432 } })]);
    expect(stableNotes(first, later)).toEqual([`${AFTER}result a in test outputs changed: port, size, url`]);
  });

  it('says outputs changed when they stop or start being an object', () => {
    const object = answer([result({ id: 'a', outputs: { url: 'x' } })]);
    const list = answer([result({ id: 'a', outputs: ['x'] })]);
    const none = answer([result({ id: 'a' })]);
    expect(stableNotes(object, list)).toEqual([`${AFTER}result a in test outputs changed`]);
    expect(stableNotes(none, object)).toEqual([`${AFTER}result a in test outputs changed`]);
    // Outputs missing on both sides are the same.
    expect(stableNotes(none, none)).toEqual([]);
  });

  it('orders arrays as they are: a list of outputs in another order is another list', () => {
    const first = answer([result({ id: 'a', outputs: { hosts: ['a', 'b'] } })]);
    const later = answer([result({ id: 'a', outputs: { hosts: ['b', 'a'] } })]);
    expect(stableNotes(first, later)).toEqual([`${AFTER}result a in test outputs changed: hosts`]);
  });

  it('keeps a doubled result apart, so that a change in doubling shows', () => {
    const once = answer([result({ id: 'a' })]);
    const twice = answer([result({ id: 'a' }), result({ id: 'a', outcome: 'failed' })]);
    expect(stableNotes(once, twice)).toEqual([`${AFTER}result a in test (again) appeared`]);
    expect(stableNotes(twice, once)).toEqual([`${AFTER}result a in test (again) disappeared`]);
  });

  it('compares results that are not objects by their JSON and place', () => {
    expect(stableNotes(answer(['x']), answer(['y']))).toEqual([`${AFTER}result #1 "x" disappeared; result #1 "y" appeared`]);
    expect(stableNotes(answer([{ b: 1, a: 2 }]), answer([{ a: 2, b: 1 }]))).toEqual([]);
  });

  it('names a changed result outcome and outcome of the answer', () => {
    const first = answer([result({ id: 'a' }), result({ id: 'b' })]);
    const later = answer([result({ id: 'a' }), result({ id: 'b', outcome: 'failed' })], 'failed');
    expect(stableNotes(first, later)).toEqual([`${AFTER}outcome succeeded became failed; result b in test outcome succeeded became failed`]);
  });

  it('reads an answer without results as one with no result', () => {
    const state = finalState(accepted().post('plan', { body: { outcome: 'failed', results: 'none' } }));
    expect(state).toEqual({ outcome: 'failed', results: new Map() });
    expect(finalDifferences(state, finalState(accepted().post('plan', { body: 'not json' })))).toEqual(['outcome failed became undefined']);
  });

  it('writes canonical JSON with sorted keys and arrays in order', () => {
    expect(canonicalJson({ b: [2, { d: null, c: 'x' }], a: true })).toBe('{"a":true,"b":[2,{"c":"x","d":null}]}');
    expect(canonicalJson(undefined)).toBe('undefined');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });
});

describe('operation.final-stable at its edges', () => {
  it('holds later answers to the final answer received first, even when it was sent second', () => {
    const b = accepted();
    const sentFirst = b.read(OP_ID, { at: 1000, took: 100, body: shopDbFinal('failed') });
    const receivedFirst = b.read(OP_ID, { at: 1010, took: 5, body: shopDbFinal(), tag: 'read-concurrent' });
    const judgement = operationFinalStable.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1, message: '1 of 1 later answer did not repeat the first final answer' });
    expect(evidenceOf(judgement)).toEqual([
      {
        note: 'read sent 15ms before the first final answer arrived gave another final answer: outcome succeeded became failed; result shop-db in test outcome succeeded became failed',
        exchanges: [sentFirst.seq, receivedFirst.seq],
      },
    ]);
  });

  it('skips reads with no response and 5xx of every kind after the final answer, and blames another status', () => {
    const { b, final } = finished();
    b.read(OP_ID, { at: 1005, error: { kind: 'timeout', message: 'no answer' }, tag: 'read-after-final' });
    b.read(OP_ID, { at: 1006, status: 500, body: '', tag: 'read-after-final' });
    b.read(OP_ID, { at: 1007, status: 200, body: 'not json', contentType: 'text/plain', tag: 'read-after-final' });
    const moved = b.read(OP_ID, { at: 1008, status: 202, body: { operationId: OP_ID }, tag: 'read-after-final' });
    expect(evidenceOf(operationFinalStable.judge(b.transcript, context()))).toEqual([
      { note: 'read sent 3ms after the first final answer arrived answered 202; after a final answer only the same answer or 404 may come', exchanges: [moved.seq, final.seq] },
    ]);
  });

  it('counts later answers and operations across two operations', () => {
    const b = accepted();
    b.post('plan', { at: 10, status: 202, body: { operationId: OTHER_ID } });
    b.read(OP_ID, { at: 100, body: shopDbFinal() });
    b.read(OP_ID, { at: 200, body: shopDbFinal(), tag: 'read-after-final' });
    const otherFinal = b.read(OTHER_ID, { at: 300, body: shopDbFinal() });
    b.read(OTHER_ID, { at: 400, status: 404, body: {}, tag: 'read-after-final' });
    b.read(OTHER_ID, { at: 500, body: shopDbFinal(), tag: 'read-after-final' });
    expect(operationFinalStable.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '3 later answers of 2 operations repeated the first final answer or were 404',
    });
    const changed = b.read(OTHER_ID, { at: 600, body: shopDbFinal('failed'), tag: 'read-after-final' });
    expect(operationFinalStable.judge(b.transcript, context())).toMatchObject({
      message: '1 of 4 later answers did not repeat the first final answer',
      evidence: [{ exchanges: [changed.seq, otherFinal.seq] }],
    });
  });

  it('is not exercised when the only later reads failed transiently', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, status: 500, body: '', tag: 'read-after-final' });
    expect(operationFinalStable.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no read after a final answer gave an answer to compare with it' });
    expect(operationFinalStable.judge(accepted().transcript, context())).toEqual({ outcome: 'not-exercised', message: '1 operation was accepted but never read' });
    const running = accepted();
    running.read(OP_ID, { at: 20, body: IN_PROGRESS });
    expect(operationFinalStable.judge(running.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no operation gave a final answer' });
  });

  it('is not applicable for a provisioner that answered every call at once, and not exercised when no call was answered', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { body: shopDbFinal() });
    const refused = new TranscriptBuilder();
    refused.post('apply', { status: 503, body: {} });
    for (const rule of [operationFinalStable, operationFinalRetained, operationNoInProgressAfterFinal]) {
      expect(rule.judge(b.transcript, context())).toEqual({ outcome: 'not-applicable', message: 'the one plan or apply call was answered 200 at once: no operation to read' });
      expect(rule.judge(refused.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'the provisioner never answered 202 with an operationId, so no operation was read' });
    }
  });
});

describe('operation.no-in-progress-after-final at its edges', () => {
  it('counts a 500 and a read with no response as transient, not as an answer', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, status: 500, body: { outcome: 'in_progress' }, tag: 'read-after-final' });
    b.read(OP_ID, { at: 1006, error: { kind: 'reset', message: 'socket hang up' }, tag: 'read-after-final' });
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'every read sent after a final answer failed transiently, so none was answered',
    });
  });

  it('blames only a 200 that says in_progress, not another status with such a body', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, status: 409, body: IN_PROGRESS, tag: 'read-after-final' });
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 read sent after the final answer of 1 operation, none said in_progress',
    });
  });

  it("judges each operation by its own final answer, not another operation's", () => {
    const b = accepted();
    b.post('plan', { at: 10, status: 202, body: { operationId: OTHER_ID } });
    b.read(OP_ID, { at: 100, body: shopDbFinal() });
    b.read(OP_ID, { at: 200, body: shopDbFinal(), tag: 'read-after-final' });
    // Still running long after OP_ID ended: no relapse, it never gave a final answer.
    b.read(OTHER_ID, { at: 300, body: IN_PROGRESS });
    const otherFinal = b.read(OTHER_ID, { at: 400, body: shopDbFinal() });
    b.read(OTHER_ID, { at: 500, body: shopDbFinal(), tag: 'read-after-final' });
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 reads sent after the final answer of 2 operations, none said in_progress',
    });
    const relapse = b.read(OTHER_ID, { at: 600, body: IN_PROGRESS, tag: 'read-after-final' });
    expect(operationNoInProgressAfterFinal.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      count: 1,
      message: '1 of 3 reads sent after a final answer said in_progress',
      evidence: [{ note: 'read sent 195ms after the first final answer arrived said in_progress', exchanges: [relapse.seq, otherFinal.seq] }],
    });
  });
});

describe('operation.final-retained at its edges', () => {
  it('is not exercised without a final answer, and leaves reads with no response to other rules', () => {
    expect(operationFinalRetained.judge(accepted().transcript, context())).toEqual({ outcome: 'not-exercised', message: '1 operation was accepted but never read' });
    const { b } = finished();
    b.read(OP_ID, { at: 1005, error: { kind: 'timeout', message: 'no answer' }, tag: 'read-after-final' });
    b.read(OP_ID, { at: 2005, body: shopDbFinal(), tag: 'read-after-final' });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '1 read after a final answer got the same final answer again' });
  });

  it('counts every read sent once the final answer had arrived, a concurrent reader that found a 404 too, and none sent before', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1004, status: 404, body: {}, tag: 'read-concurrent' });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no read was sent after a final answer arrived' });
    b.read(OP_ID, { at: 1005, status: 404, body: {}, tag: 'read-concurrent' });
    expect(operationFinalRetained.judge(b.transcript, context())).toMatchObject({ outcome: 'broken', count: 1 });
  });

  it('measures forgetting from the final answer received first, and counts kept and forgotten reads', () => {
    const b = accepted();
    b.read(OP_ID, { at: 1000, took: 300, body: shopDbFinal() });
    const receivedFirst = b.read(OP_ID, { at: 1010, took: 10, body: shopDbFinal(), tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1020, body: shopDbFinal(), tag: 'read-after-final' });
    const gone = b.read(OP_ID, { at: 2020, status: 404, body: {}, tag: 'read-after-final' });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 reads after a final answer found the operation forgotten',
      evidence: [
        { note: 'forgotten 1.0s after the final answer: a final answer lost on the network would turn into a failure', exchanges: [gone.seq, receivedFirst.seq] },
      ],
    });
  });

  it('does not count a changed final answer as kept', () => {
    const { b } = finished();
    b.read(OP_ID, { at: 1005, body: shopDbFinal(), tag: 'read-after-final' });
    b.read(OP_ID, { at: 2005, body: shopDbFinal('failed'), tag: 'read-after-final' });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '1 read after a final answer got the same final answer again' });
  });
});
