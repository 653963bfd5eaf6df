import { describe, expect, it } from 'vitest';
import {
  acceptedOperationId,
  bodyObject,
  finalAnswers,
  isContractJsonType,
  isFinalAnswer,
  isInProgressAnswer,
  isTransient,
  operations,
  outcomeOf,
  readsAfterFinal,
  readsSurelyBeforeFinal,
  submissions,
} from '../../src/transcript/views.js';
import { IN_PROGRESS, OP_ID, T0, TranscriptBuilder, shopDbFinal } from '../support/transcript-builder.js';

/** The views the judges share, at their edges: the happens-before order of reads, and what counts as final, transient or JSON. */

const OTHER_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

describe('answers as the judges see them', () => {
  const b = new TranscriptBuilder();
  const answer = (spec: Parameters<TranscriptBuilder['read']>[1]) => b.read(OP_ID, spec);

  it('reads a body as an object only when it is a JSON object', () => {
    expect(bodyObject(answer({ body: { a: 1 } }))).toEqual({ a: 1 });
    expect(bodyObject(answer({ body: [1] }))).toBeUndefined();
    expect(bodyObject(answer({ body: 'null' }))).toBeUndefined();
    expect(bodyObject(answer({ body: '{"a":' }))).toBeUndefined();
    expect(bodyObject(answer({ error: { kind: 'timeout', message: 'no answer' } }))).toBeUndefined();
  });

  it('knows the three outcomes and nothing else', () => {
    expect(['in_progress', 'succeeded', 'failed', 'done', 'SUCCEEDED'].map((outcome) => outcomeOf(answer({ body: { outcome } })))).toEqual([
      'in_progress',
      'succeeded',
      'failed',
      undefined,
      undefined,
    ]);
  });

  it('takes only a 200 that says succeeded or failed as a final answer', () => {
    expect(isFinalAnswer(answer({ body: shopDbFinal() }))).toBe(true);
    expect(isFinalAnswer(answer({ body: shopDbFinal('failed') }))).toBe(true);
    expect(isFinalAnswer(answer({ body: IN_PROGRESS }))).toBe(false);
    expect(isFinalAnswer(answer({ status: 201, body: shopDbFinal() }))).toBe(false);
    expect(isFinalAnswer(answer({ error: { kind: 'reset', message: 'socket hang up' } }))).toBe(false);
  });

  it('takes only a 200 that says in_progress as an in_progress answer', () => {
    expect(isInProgressAnswer(answer({ body: IN_PROGRESS }))).toBe(true);
    expect(isInProgressAnswer(answer({ status: 202, body: IN_PROGRESS }))).toBe(false);
    expect(isInProgressAnswer(answer({ body: shopDbFinal() }))).toBe(false);
    expect(isInProgressAnswer(answer({ error: { kind: 'timeout', message: 'no answer' } }))).toBe(false);
  });

  it('takes every 5xx and every transport failure as transient, and nothing below 500', () => {
    expect(isTransient(answer({ status: 499, body: {} }))).toBe(false);
    expect(isTransient(answer({ status: 404, body: {} }))).toBe(false);
    expect(isTransient(answer({ status: 500, body: '' }))).toBe(true);
    expect(isTransient(answer({ status: 502, body: '' }))).toBe(true);
    expect(isTransient(answer({ status: 599, body: '' }))).toBe(true);
    expect(isTransient(answer({ error: { kind: 'refused', message: 'ECONNREFUSED' } }))).toBe(true);
  });

  it('takes application/json and any +json type as JSON, in any case and with parameters', () => {
    const json = ['application/json', 'Application/JSON; charset=utf-8', ' application/json ', 'application/problem+json', 'application/vnd.a-b_c.d!#$&^+json;v=1'];
    const notJson = [
      undefined,
      '',
      'text/json',
      'application/jsonx',
      'xapplication/json',
      'application/json+xml',
      'application/x+jsonp',
      'appl ication/x+json',
      'application/x y+json',
      'application/+json',
      '/x+json',
      'text/html; a=application/json',
    ];
    expect(json.filter((type) => !isContractJsonType(type))).toEqual([]);
    expect(notJson.filter((type) => isContractJsonType(type))).toEqual([]);
  });

  it('takes an operationId only from a 202 whose body holds it as a string', () => {
    expect(acceptedOperationId(answer({ status: 202, body: { operationId: OP_ID } }))).toBe(OP_ID);
    expect(acceptedOperationId(answer({ status: 202, body: { operationId: 7 } }))).toBeUndefined();
    expect(acceptedOperationId(answer({ status: 200, body: { operationId: OP_ID } }))).toBeUndefined();
    expect(acceptedOperationId(answer({ status: 202, body: [OP_ID] }))).toBeUndefined();
    expect(acceptedOperationId(answer({ error: { kind: 'timeout', message: 'no answer' } }))).toBeUndefined();
  });
});

describe('operations and the order of their reads', () => {
  it('groups reads by the first 202 of each id, leaves out probes of ids never issued, and sorts reads by when they were sent', () => {
    const b = new TranscriptBuilder();
    const apply = b.post('apply', { at: 0, took: 10, status: 202, body: { operationId: OP_ID }, changeSet: 'shop-db' });
    b.badInput('plan', { at: 1, status: 202, body: { operationId: OTHER_ID } });
    b.post('plan', { at: 2, status: 202, body: { operationId: OP_ID }, changeSet: 'other' });
    const plan = b.post('plan', { at: 3, took: 7, status: 202, body: { operationId: OTHER_ID }, changeSet: 'web' });
    const late = b.read(OP_ID, { at: 300, body: IN_PROGRESS });
    const early = b.read(OP_ID, { at: 100, body: IN_PROGRESS, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 200, status: 404, body: {}, tag: 'read-unknown' });
    b.read(OP_ID, { at: 210, status: 404, body: {}, tag: 'read-malformed' });
    b.read('9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a', { at: 220, body: IN_PROGRESS });
    const after = b.read(OP_ID, { at: 400, body: shopDbFinal(), tag: 'read-after-final' });
    const ops = operations(b.transcript);
    expect(ops.map((op) => [op.operationId, op.kind, op.changeSet, op.accepted.seq, op.acceptedAt - T0])).toEqual([
      [OP_ID, 'apply', 'shop-db', apply.seq, 10],
      [OTHER_ID, 'plan', 'web', plan.seq, 10],
    ]);
    expect(ops[0]!.reads.map((r) => r.seq)).toEqual([early.seq, late.seq, after.seq]);
    expect(ops[0]!.finalReads.map((r) => r.seq)).toEqual([after.seq]);
    expect(ops[1]!.reads).toEqual([]);
    expect(ops[1]!).not.toHaveProperty('firstFinalSentAt');
  });

  it('dates a final answer by the first final read sent, and by the first final answer received', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 1000, took: 500, body: shopDbFinal() });
    b.read(OP_ID, { at: 1100, took: 10, body: shopDbFinal(), tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1050, took: 600, body: shopDbFinal(), tag: 'read-concurrent' });
    const [op] = operations(b.transcript);
    expect(op!.firstFinalSentAt! - T0).toBe(1000);
    expect(op!.firstFinalReceivedAt! - T0).toBe(1110);
  });

  it('counts a read sent the moment the final answer arrived as after it, and one sent a moment before as not', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 1000, took: 20, body: shopDbFinal() });
    b.read(OP_ID, { at: 1019, took: 5, body: IN_PROGRESS, tag: 'read-concurrent' });
    const atOnce = b.read(OP_ID, { at: 1020, took: 5, body: shopDbFinal(), tag: 'read-after-final' });
    expect(readsAfterFinal(operations(b.transcript)[0]!).map((r) => r.seq)).toEqual([atOnce.seq]);
  });

  it('counts a read that ended the moment the first final read was sent as surely before it, and one that ended later as not', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    const before = b.read(OP_ID, { at: 900, took: 100, body: IN_PROGRESS });
    b.read(OP_ID, { at: 901, took: 100, body: IN_PROGRESS, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1000, took: 5, body: shopDbFinal() });
    expect(readsSurelyBeforeFinal(operations(b.transcript)[0]!).map((r) => r.seq)).toEqual([before.seq]);
  });

  it('takes every read as before the final answer, and none as after it, while there is no final answer', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    const reads = [b.read(OP_ID, { at: 10, body: IN_PROGRESS }), b.read(OP_ID, { at: 20, status: 503, body: '' })];
    const [op] = operations(b.transcript);
    expect(readsSurelyBeforeFinal(op!)).toEqual(reads);
    expect(readsAfterFinal(op!)).toEqual([]);
  });
});

describe('final answers of a run', () => {
  it('lists final answers to POSTs and final reads in transcript order, each read with the change set of its operation', () => {
    const b = new TranscriptBuilder();
    const planned = b.post('plan', { body: shopDbFinal(), changeSet: 'shop-db' });
    b.post('plan', { body: IN_PROGRESS });
    b.badInput('plan', { body: shopDbFinal('failed') });
    b.post('apply', { status: 202, body: { operationId: OP_ID }, changeSet: 'web' });
    b.read(OP_ID, { body: IN_PROGRESS });
    const read = b.read(OP_ID, { body: shopDbFinal() });
    const named = b.read(OP_ID, { body: shopDbFinal(), tag: 'read-after-final', changeSet: 'named' });
    const applied = b.post('apply', { body: shopDbFinal('failed'), changeSet: 'cache' });
    expect(finalAnswers(b.transcript).map((e) => [e.seq, e.changeSet])).toEqual([
      [planned.seq, 'shop-db'],
      [read.seq, 'web'],
      [named.seq, 'named'],
      [applied.seq, 'cache'],
    ]);
    expect(submissions(b.transcript).map((e) => e.tag)).toEqual(['plan', 'plan', 'apply', 'apply']);
  });
});
