import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StreamingJudge } from '../../src/observe/streaming-judge.js';
import type { SeenChangeSet } from '../../src/observe/seen-change-set.js';
import { observedContext } from '../../src/observe/observe.js';
import { maxOperationDurationField } from '../../src/config/fields.js';
import type { RuleSelection } from '../../src/rules/index.js';
import { NEVER_HAD } from '../../src/observe/rule-tally.js';
import { IN_PROGRESS, shopDbFinal, T0, TranscriptBuilder } from '../support/transcript-builder.js';

const SHOP_DB_SET = JSON.stringify({ kind: 'managed-resource', type: 'postgres', changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] });
const POLL = 10_000;
/** Past the deadline and a poll interval from the start (PT1M, 10 s): a UUID first read then and never accepted is unknown. */
const LATE = 71_000;

function judge(selection: RuleSelection = {}, onChangeSet?: (changeSet: SeenChangeSet) => void): StreamingJudge {
  return new StreamingJudge({
    context: observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: POLL, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, T0),
    selection,
    changesPointer: '/changes',
    ...(onChangeSet && { onChangeSet }),
  });
}

function statusOf(j: StreamingJudge, id: string): string {
  return j.results().find((result) => result.id === id)!.status;
}

describe('the streaming judge takes any answer below 500 for proof that the provisioner was answering', () => {
  it('takes a read of an operation it does not follow, answered, as the contrast of a body answered only 500', () => {
    for (const [status, expected] of [
      [404, 'warn'],
      [503, 'not-exercised'],
    ] as const) {
      const j = judge();
      const b = new TranscriptBuilder();
      for (const at of [0, POLL, 2 * POLL]) {
        j.add(b.post('apply', { at, status: 500, body: 'boom', contentType: 'text/plain', requestBody: '{"changes": []}' }));
        if (at === 0) j.add(b.read(randomUUID(), { at: 100, status, body: { error: 'unknown operation' } }));
      }
      expect(statusOf(j, 'input.invalid-change-set'), String(status)).toBe(expected);
    }
  });

  it('does not take a read of an operation it does not follow for a read of a known one', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: randomUUID() }, requestBody: SHOP_DB_SET }));
    for (const at of [10, POLL, 2 * POLL]) {
      j.add(b.read('not-a-uuid', { at, status: 500, body: 'boom', contentType: 'text/plain' }));
      if (at === 10) j.add(b.read(randomUUID(), { at: 100, status: 404, body: { error: 'unknown operation' } }));
    }
    expect(statusOf(j, 'operation.malformed-id')).toBe('not-exercised');
  });

  it('does not take a read of a known operation answered 5xx for proof that reads were answered', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    for (const at of [10, POLL, 2 * POLL]) {
      j.add(b.read('not-a-uuid', { at, status: 500, body: 'boom', contentType: 'text/plain' }));
      if (at < 2 * POLL) j.add(b.read(id, { at: at + 100, status: 503, body: 'busy', contentType: 'text/plain' }));
    }
    expect(statusOf(j, 'operation.malformed-id')).toBe('not-exercised');
  });
});

describe('the streaming judge after an operation ended without a final answer', () => {
  it('judges a later read of its id as a read of an id the observation saw, not as an unknown id nor a read after a final answer', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { at: 10, status: 404, body: { error: 'unknown operation' } }));
    j.add(b.read(id, { at: LATE, status: 200, body: IN_PROGRESS }));
    expect(j.traffic().unattachedReads).toBe(1);
    expect(statusOf(j, 'operation.unknown-404')).toBe('not-exercised');
    expect(statusOf(j, 'operation.no-in-progress-after-final')).toBe('not-exercised');
    expect(statusOf(j, 'operation.final-stable')).toBe('not-exercised');
  });

  it('holds no apply sent again to a first call that was lost', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const first = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: first }, requestBody: SHOP_DB_SET }));
    j.add(b.read(first, { at: 10, status: 404, body: { error: 'unknown operation' } }));
    const again = randomUUID();
    j.add(b.post('apply', { at: 100, status: 202, body: { operationId: again }, requestBody: SHOP_DB_SET }));
    j.add(b.read(again, { at: 110, body: shopDbFinal() }));
    expect(statusOf(j, 'apply.idempotent')).toBe('not-exercised');
    expect(statusOf(j, 'apply.repeat-while-running')).toBe('not-exercised');
  });

  it('keeps following an operation whose read got no answer', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { at: 10, error: { kind: 'reset', message: 'socket hang up' } }));
    expect(j.traffic().operations.open).toBe(1);
    j.add(b.read(id, { at: 20, body: shopDbFinal() }));
    expect(j.traffic().operations).toMatchObject({ open: 0, ended: { final: 1 } });
  });
});

describe('the streaming judge keeps no event a slice did not have', () => {
  it('keeps the evidence of a call answered at once, a 202 giving an id again, a read after a final answer and a read of an unknown id without events', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 500, body: 'boom', contentType: 'text/plain', requestBody: SHOP_DB_SET }));
    expect(statusOf(j, 'answer.status')).toBe('fail');
    const id = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: shopDbFinal() }));
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    expect(statusOf(j, 'accepted.operation-id-unique')).toBe('fail');
    j.add(b.read(id, { body: IN_PROGRESS }));
    expect(statusOf(j, 'operation.no-in-progress-after-final')).toBe('fail');
    j.add(b.read(randomUUID(), { at: LATE, status: 200, body: IN_PROGRESS }));
    expect(statusOf(j, 'operation.unknown-404')).toBe('fail');
    expect(j.snapshot().evidence.events).toEqual([]);
  });

  it('keeps the evidence of plans sent again, and of a body answered only 500, without events', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.add(b.post('plan', { status: 200, body: shopDbFinal('failed'), requestBody: SHOP_DB_SET }));
    expect(statusOf(j, 'plan.repeatable')).toBe('warn');
    for (const at of [100, POLL, 2 * POLL]) {
      j.add(b.post('apply', { at, status: 500, body: 'boom', contentType: 'text/plain', requestBody: '{"changes": []}' }));
      if (at === 100) j.add(b.post('plan', { at: 200, status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    }
    expect(statusOf(j, 'input.invalid-change-set')).toBe('warn');
    expect(j.snapshot().evidence.events).toEqual([]);
  });
});

describe('the streaming judge keeps how a call sent again ended', () => {
  it('keeps the end of the apply sent again in the evidence of apply.idempotent', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const first = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: first }, requestBody: SHOP_DB_SET }));
    j.add(b.read(first, { at: 10, body: shopDbFinal() }));
    const again = randomUUID();
    j.add(b.post('apply', { at: 100, status: 202, body: { operationId: again }, requestBody: SHOP_DB_SET }));
    j.add(b.read(again, { at: 110, body: shopDbFinal('failed') }));
    expect(statusOf(j, 'apply.idempotent')).toBe('fail');
    expect(j.snapshot().evidence.events).toContainEqual(expect.objectContaining({ type: 'poll-ended', operationId: again, reason: 'final' }));
  });
});

describe('the streaming judge judges by the rules selected', () => {
  it('reports a rule skipped as skipped, however the traffic broke it', () => {
    const j = judge({ skip: ['operation.no-in-progress-after-final', 'answer.status'] });
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('plan', { status: 500, body: 'boom', contentType: 'text/plain', requestBody: SHOP_DB_SET }));
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: shopDbFinal() }));
    j.add(b.read(id, { body: IN_PROGRESS }));
    expect(statusOf(j, 'operation.no-in-progress-after-final')).toBe('skip');
    expect(statusOf(j, 'answer.status')).toBe('skip');
    expect(statusOf(j, 'final.results-match-changes')).toBe('pass');
  });

  it('judges a read after the final answer by the rules chosen only', () => {
    const j = judge({ only: ['operation.no-in-progress-after-final'] });
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: shopDbFinal() }));
    j.add(b.read(id, { body: IN_PROGRESS }));
    expect(statusOf(j, 'operation.no-in-progress-after-final')).toBe('fail');
    expect(statusOf(j, 'operation.final-stable')).toBe('skip');
    expect(statusOf(j, 'final.results-match-changes')).toBe('skip');
    // A rule deselected counts nothing, though it is about reads after the final answer too.
    expect(j.ruleCounts()['operation.final-stable']).toEqual({ exercised: 0, held: 0, broken: 0 });
    expect(j.ruleCounts()['final.results-match-changes']).toEqual({ exercised: 0, held: 0, broken: 0 });
    expect(j.ruleCounts()['operation.no-in-progress-after-final']).toEqual({ exercised: 1, held: 0, broken: 1 });
  });

  it('fails a SHOULD rule broken when strict', () => {
    const j = judge({ strict: true });
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: id, extra: 1 }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: shopDbFinal() }));
    expect(statusOf(j, 'accepted.only-operation-id')).toBe('fail');
  });
});

describe('the streaming judge says why a rule was never exercised', () => {
  it('by the latest slice that held a call, not by a read of an operation it does not follow, before it or after it', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.read(randomUUID(), { at: 100, status: 404, body: { error: 'unknown operation' } }));
    j.add(b.post('apply', { at: 200, status: 202, body: { operationId: randomUUID() }, requestBody: SHOP_DB_SET }));
    j.finish(T0 + 300);
    j.add(b.read(randomUUID(), { at: 400, status: 404, body: { error: 'unknown operation' } }));
    const status = j.results().find((result) => result.id === 'operation.status')!;
    expect(status.status).toBe('not-exercised');
    expect(status.message).toBe(`${NEVER_HAD} (1 operation was accepted but never read)`);
  });
});

describe('the streaming judge keeps the change sets of its evidence as a run knows them', () => {
  it('keeps why the changes of a body could not be read, and the changes of a change set, nothing more', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: '{"changes": [' }));
    expect(statusOf(j, 'input.malformed-json')).toBe('warn');
    const [bad] = j.evidenceChangeSets();
    expect(bad).toStrictEqual({ name: expect.stringMatching(/^change-set-[0-9a-f]{12}$/), changesError: 'the body is not JSON' });
    const other = judge();
    other.add(b.post('plan', { status: 500, body: 'boom', contentType: 'text/plain', requestBody: SHOP_DB_SET }));
    expect(other.evidenceChangeSets()).toStrictEqual([{ name: expect.stringMatching(/^managed-resource-postgres-/), changes: [{ id: 'shop-db', environment: 'test' }] }]);
  });
});

describe('the streaming judge reads what it is given', () => {
  it('counts and judges plan, apply and reads of operations only', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.read(randomUUID(), { status: 404, body: { error: 'unknown operation' }, tag: 'read-unknown' }));
    expect(j.traffic()).toMatchObject({ exchanges: 1, byTag: { plan: 0, apply: 0, poll: 0 }, unattachedReads: 0 });
    expect(statusOf(j, 'operation.unknown-404')).toBe('not-exercised');
  });

  it('takes a POST with no body for one whose body is not JSON', () => {
    const heard: string[] = [];
    const j = judge({}, (changeSet) => heard.push(changeSet.text));
    const b = new TranscriptBuilder();
    const post = b.post('plan', { status: 400, body: { error: 'no body' } });
    j.add({ ...post, request: { ...post.request, body: undefined } });
    expect(heard).toEqual(['']);
    expect(statusOf(j, 'input.malformed-json')).toBe('pass');
  });

  it('tells an apply sent below a base path for an apply in what the control plane concluded', () => {
    const j = judge();
    const b = new TranscriptBuilder('http://127.0.0.1:8080/provisioner');
    const id = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.finish();
    expect(j.operationConclusions().map((c) => c.kind)).toEqual(['apply']);
  });
});
