import { describe, expect, it } from 'vitest';
import { EndStates, describeDifferences, endDifferences, sameJson } from '../../src/transcript/end-states.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { IN_PROGRESS, TranscriptBuilder, shopDbFinal } from '../support/transcript-builder.js';

const ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const OTHER = '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d';

describe('EndStates: where a call ended', () => {
  it('names every way a call can end without a final answer', () => {
    const b = new TranscriptBuilder();
    const ends = (): EndStates => new EndStates(b.transcript);
    const reset = b.post('apply', { error: { kind: 'reset', message: 'socket hang up' } });
    const stopped = b.post('apply', { error: { kind: 'stopped', message: 'run stopped' } });
    const notFinal = b.post('apply', { body: IN_PROGRESS });
    const refused = b.post('apply', { status: 409, body: {} });
    const noId = b.post('apply', { status: 202, body: {} });
    const unknownId = b.post('apply', { status: 202, body: { operationId: ID } });
    expect(ends().of(reset)).toEqual({ ended: false, unknown: false, why: 'got no answer (reset)' });
    expect(ends().of(stopped)).toEqual({ ended: false, unknown: true, why: 'got no answer (stopped)' });
    expect(ends().of(notFinal)).toEqual({ ended: false, unknown: false, why: 'answered 200 without a final outcome' });
    expect(ends().of(refused)).toEqual({ ended: false, unknown: false, why: 'answered 409' });
    expect(ends().of(noId)).toEqual({ ended: false, unknown: false, why: 'answered 202 without an operationId to follow' });
    expect(ends().of(unknownId)).toEqual({ ended: false, unknown: true, why: 'answered 202, and the kit stopped following it before its end' });
    for (const [reason, why] of [
      ['lost', 'answered 202, then its operation answered 404 before any final answer'],
      ['unexpected', 'answered 202, then a read of its operation answered 200 with a body that is no operation answer'],
      ['deadline', 'answered 202, then gave no final answer within maxOperationDuration'],
      ['final', 'answered 202, then gave no final answer'],
      ['aborted', 'answered 202, and the kit stopped following it before its end'],
    ] as const) {
      const c = new TranscriptBuilder();
      const post = c.post('plan', { status: 202, body: { operationId: ID } });
      c.pollEnded(ID, post.seq, reason, 100);
      const afterAccepting = reason === 'lost' || reason === 'unexpected' || reason === 'deadline' ? { afterAccepting: reason } : {};
      expect(new EndStates(c.transcript).of(post)).toEqual({ ended: false, unknown: reason === 'aborted', why, ...afterAccepting });
    }
  });

  it('ends a 200 at itself and a 202 at the final read received first', () => {
    const b = new TranscriptBuilder();
    const sync = b.post('plan', { body: shopDbFinal() });
    const post = b.post('plan', { at: 0, status: 202, body: { operationId: ID } });
    b.read(ID, { at: 10, took: 100, body: shopDbFinal('failed') });
    const firstReceived = b.read(ID, { at: 20, took: 10, body: shopDbFinal() });
    const ends = new EndStates(b.transcript);
    expect(ends.of(sync)).toEqual({ ended: true, final: sync });
    expect(ends.of(post)).toEqual({ ended: true, final: firstReceived });
  });

  it('follows a second 202 with the same operationId by the poll-ended event of the first', () => {
    const b = new TranscriptBuilder();
    const first = b.post('plan', { status: 202, body: { operationId: ID } });
    const again = b.post('plan', { status: 202, body: { operationId: ID } });
    b.pollEnded(ID, first.seq, 'lost', 100);
    const ends = new EndStates(b.transcript);
    expect(ends.operationOf(again)?.accepted).toBe(first);
    expect(ends.of(again)).toEqual({ ended: false, unknown: false, why: 'answered 202, then its operation answered 404 before any final answer', afterAccepting: 'lost' });
    // Its own event, when there is one, comes first.
    b.pollEnded(ID, again.seq, 'deadline', 200);
    expect(new EndStates(b.transcript).of(again)).toMatchObject({ why: 'answered 202, then gave no final answer within maxOperationDuration' });
  });

  it('tells whether some other operation ended, and how the others failed', () => {
    const b = new TranscriptBuilder();
    const ended = b.post('plan', { status: 202, body: { operationId: ID } });
    b.read(ID, { body: shopDbFinal() });
    const lost = b.post('plan', { status: 202, body: { operationId: OTHER } });
    b.read(OTHER, { body: IN_PROGRESS });
    b.pollEnded(OTHER, lost.seq, 'lost', 100);
    const followed = b.post('plan', { status: 202, body: { operationId: '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d' } });
    const ends = new EndStates(b.transcript);
    const is = (post: Exchange) => (op: { accepted: Exchange }) => op.accepted === post;
    expect(ends.someOperationEnded(() => false)).toBe(true);
    expect(ends.someOperationEnded(is(ended))).toBe(false);
    expect(ends.someOperationEnded((op) => op.accepted !== lost)).toBe(false);
    expect([...ends.failuresOutside(() => false)]).toEqual(['answered 202, then its operation answered 404 before any final answer']);
    expect([...ends.failuresOutside(is(lost))]).toEqual([]);
    expect(followed.seq).toBe(5);
  });
});

/** A final answer with these results. */
function finalWith(results: unknown, b = new TranscriptBuilder()): Exchange {
  return b.post('apply', { body: { outcome: 'succeeded', description: 'Done.', results } });
}

function result(id: string, environment: string, outcome: unknown, outputs?: unknown): Record<string, unknown> {
  return { id, environment, outcome, description: 'x', ...(outputs === undefined ? {} : { outputs }) };
}

describe('endDifferences: change by change', () => {
  it('finds no difference between equal answers, outputs in another key order included', () => {
    const a = finalWith([result('db', 'test', 'succeeded', { url: 'u', port: 1, tags: ['a', 'b'], nested: { x: 1, y: [1, { z: 2 }] } })]);
    const b = finalWith([result('db', 'test', 'succeeded', { nested: { y: [1, { z: 2 }], x: 1 }, tags: ['a', 'b'], port: 1, url: 'u' })]);
    expect(endDifferences(a, b, { outputs: true })).toEqual([]);
  });

  it('matches results by id and environment, and names one that is missing on either side', () => {
    const a = finalWith([result('db', 'test', 'succeeded'), result('db', 'prod', 'succeeded')]);
    const b = finalWith([result('db', 'test', 'succeeded'), result('cache', 'prod', 'succeeded')]);
    expect(endDifferences(a, b, { outputs: false })).toEqual([
      { change: 'db in prod', field: 'result', first: 'present', second: 'missing' },
      { change: 'cache in prod', field: 'result', first: 'missing', second: 'present' },
    ]);
  });

  it('leaves out results that are no object or lack a string id or environment, and keeps the first of a doubled one', () => {
    const a = finalWith([result('db', 'test', 'succeeded'), 'db', { id: 1, environment: 'test' }, { id: 'db', environment: 2 }, result('db', 'test', 'failed')]);
    const b = finalWith([result('db', 'test', 'succeeded')]);
    expect(endDifferences(a, b, { outputs: false })).toEqual([]);
    expect(endDifferences(b, finalWith({ not: 'an array' }), { outputs: false })).toEqual([{ change: 'db in test', field: 'result', first: 'present', second: 'missing' }]);
    const noBody = new TranscriptBuilder().post('apply', { body: 'not json' });
    expect(endDifferences(noBody, b, { outputs: false })).toEqual([{ change: 'db in test', field: 'result', first: 'missing', second: 'present' }]);
  });

  it('names a changed outcome, shown as JSON, and a missing one', () => {
    const a = finalWith([result('db', 'test', 'succeeded')]);
    expect(endDifferences(a, finalWith([result('db', 'test', 'failed')]), { outputs: false })).toEqual([
      { change: 'db in test', field: 'outcome', first: '"succeeded"', second: '"failed"' },
    ]);
    expect(endDifferences(a, finalWith([{ id: 'db', environment: 'test' }]), { outputs: false })).toEqual([
      { change: 'db in test', field: 'outcome', first: '"succeeded"', second: 'missing' },
    ]);
  });

  it('compares outputs only when asked, key by key in sorted order, leaving equal keys out', () => {
    const a = finalWith([result('db', 'test', 'succeeded', { zeta: 1, alpha: 'a', same: [1, 2], gone: true })]);
    const b = finalWith([result('db', 'test', 'succeeded', { same: [1, 2], alpha: 'b', zeta: 2, added: null })]);
    expect(endDifferences(a, b, { outputs: false })).toEqual([]);
    expect(endDifferences(a, b, { outputs: true }).map((d) => [d.field, d.first, d.second])).toEqual([
      ['outputs.added', 'missing', 'null'],
      ['outputs.alpha', '"a"', '"b"'],
      ['outputs.gone', 'true', 'missing'],
      ['outputs.zeta', '1', '2'],
    ]);
  });

  it('compares outputs that are no object as a whole, and takes no outputs for an empty object', () => {
    const text = finalWith([result('db', 'test', 'succeeded', 'same text')]);
    expect(endDifferences(text, finalWith([result('db', 'test', 'succeeded', 'same text')]), { outputs: true })).toEqual([]);
    expect(endDifferences(text, finalWith([result('db', 'test', 'succeeded', { a: 1 })]), { outputs: true })).toEqual([
      { change: 'db in test', field: 'outputs', first: '"same text"', second: '{"a":1}' },
    ]);
    expect(endDifferences(finalWith([result('db', 'test', 'succeeded', ['a'])]), finalWith([result('db', 'test', 'succeeded', {})]), { outputs: true })).toEqual([
      { change: 'db in test', field: 'outputs', first: '["a"]', second: '{}' },
    ]);
    expect(endDifferences(finalWith([result('db', 'test', 'succeeded')]), finalWith([result('db', 'test', 'succeeded', {})]), { outputs: true })).toEqual([]);
  });

  it('cuts a long value at 80 characters, and shows one of exactly 80 whole', () => {
    const long = 'x'.repeat(100);
    const [cut] = endDifferences(finalWith([result('db', 'test', 'succeeded', { v: long })]), finalWith([result('db', 'test', 'succeeded', { v: 'y' })]), { outputs: true });
    expect(cut!.first).toBe(`"${'x'.repeat(78)}…`);
    expect([...cut!.first]).toHaveLength(80);
    const exact = 'x'.repeat(78);
    const [whole] = endDifferences(finalWith([result('db', 'test', 'succeeded', { v: exact })]), finalWith([result('db', 'test', 'succeeded', { v: 'y' })]), { outputs: true });
    expect(whole!.first).toBe(`"${exact}"`);
  });
});

describe('sameJson', () => {
  it('compares arrays by position and length, objects by keys whatever their order', () => {
    expect(sameJson([1, 2], [1, 2])).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson([1, 2, 3], [1, 2])).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson({}, [])).toBe(false);
    expect(sameJson({ '0': 1 }, [1])).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameJson({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson(1, 1)).toBe(true);
    expect(sameJson(1, '1')).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson({}, null)).toBe(false);
    expect(sameJson({}, {})).toBe(true);
  });
});

describe('describeDifferences', () => {
  it('lists the fields of each change together, and the changes apart', () => {
    expect(
      describeDifferences([
        { change: 'db in test', field: 'outcome', first: '"a"', second: '"b"' },
        { change: 'cache in test', field: 'result', first: 'present', second: 'missing' },
        { change: 'db in test', field: 'outputs.url', first: '"x"', second: '"y"' },
      ]),
    ).toBe('db in test: outcome "a" vs "b", outputs.url "x" vs "y"; cache in test: result present vs missing');
    expect(describeDifferences([])).toBe('');
  });
});
