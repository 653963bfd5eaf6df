import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StreamingJudge, type StreamingJudgeSettings } from '../../src/observe/streaming-judge.js';
import { observedContext } from '../../src/observe/observe.js';
import { maxOperationDurationField } from '../../src/config/fields.js';
import type { RuleResult } from '../../src/rules/types.js';
import type { SeenChangeSet } from '../../src/observe/seen-change-set.js';
import type { Transcript } from '../../src/transcript/transcript.js';
import { IN_PROGRESS, shopDbFinal, T0, TranscriptBuilder } from '../support/transcript-builder.js';

const SHOP_DB_SET = JSON.stringify({ kind: 'managed-resource', type: 'postgres', changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] });
const CACHE_SET = JSON.stringify({ kind: 'managed-resource', type: 'redis', changes: [{ id: 'cache', environment: 'test', action: 'removed' }] });

function judge(extra: Partial<StreamingJudgeSettings> = {}, maxOperationDuration = 'PT1M'): StreamingJudge {
  return new StreamingJudge({
    context: observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField(maxOperationDuration, undefined) }, T0),
    selection: {},
    changesPointer: '/changes',
    ...extra,
  });
}

function statusOf(j: StreamingJudge, id: string): string {
  return j.results().find((result) => result.id === id)!.status;
}

describe('what the streaming judge says the control plane concluded of work that did not end in a final answer', () => {
  it('says a read answered 404 failed the work at once, with how long after the 202 it came', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { at: 1_995, status: 404, body: { error: 'unknown operation' } }));
    expect(j.operationConclusions()).toEqual([
      {
        operationId: id,
        changeSet: expect.stringMatching(/^managed-resource-postgres-[0-9a-f]{12}$/),
        kind: 'apply',
        reason: 'lost',
        conclusion: 'the control plane failed this work at once: a read 2.0s after the 202 answered 404',
      },
    ]);
    expect(j.traffic().operations.ended).toEqual({ final: 0, lost: 1, unexpected: 0, deadline: 0, aborted: 0 });
  });

  it('says an unexpected response would fail the work, for a plan as for an apply', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('plan', { at: 0, status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    // The read ends 300 ms after the start, 295 ms after the 202 ended.
    j.add(b.read(id, { at: 295, body: { outcome: 'SUCCEEDED' } }));
    const [conclusion] = j.operationConclusions();
    expect(conclusion).toMatchObject({ operationId: id, kind: 'plan', reason: 'unexpected' });
    expect(conclusion!.conclusion).toBe('the control plane would fail this work: the provisioner sent an unexpected response (a read 295ms after the 202)');
  });

  it('says the work would fail at its deadline, naming the time allowed rather than when the sweep came', () => {
    const j = judge({}, 'PT2S');
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { at: 500, body: IN_PROGRESS }));
    // Exactly at the deadline the work has had its time: it ends there.
    j.sweep(T0 + 5 + 2_000 - 1);
    expect(j.operationConclusions()).toEqual([]);
    j.sweep(T0 + 5 + 2_000);
    expect(j.operationConclusions()).toEqual([
      expect.objectContaining({ reason: 'deadline', conclusion: 'the control plane would fail this work: no final answer within 2.0s of the 202' }),
    ]);
  });

  it('says the observation ended before the work did, and when', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { at: 40, body: IN_PROGRESS }));
    expect(j.latest).toBe(T0 + 45);
    j.finish();
    expect(j.operationConclusions()).toEqual([
      expect.objectContaining({ operationId: id, reason: 'aborted', conclusion: 'the observation ended 40ms after the 202, before this work ended' }),
    ]);
    expect(j.traffic().operations).toEqual({ accepted: 1, open: 0, ended: { final: 0, lost: 0, unexpected: 0, deadline: 0, aborted: 1 } });
  });

  it('ends work past its deadline at the deadline when the observation ends, and the rest as aborted', () => {
    const j = judge({}, 'PT1S');
    const b = new TranscriptBuilder();
    const late = randomUUID();
    const recent = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: late }, requestBody: SHOP_DB_SET }));
    j.add(b.read(late, { at: 100, body: IN_PROGRESS }));
    j.add(b.post('apply', { at: 1_500, status: 202, body: { operationId: recent }, requestBody: CACHE_SET }));
    j.finish(T0 + 1_800);
    expect(j.operationConclusions().map((c) => [c.operationId, c.reason])).toEqual([
      [late, 'deadline'],
      [recent, 'aborted'],
    ]);
    expect(statusOf(j, 'operation.within-max-duration')).toBe('fail');
  });

  it('keeps the conclusions of the latest 50 such operations only', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const ids = Array.from({ length: 51 }, () => randomUUID());
    for (const id of ids) j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.finish();
    const kept = j.operationConclusions();
    expect(kept).toHaveLength(50);
    expect(kept.map((c) => c.operationId)).toEqual(ids.slice(1));
    expect(j.traffic().operations.ended.aborted).toBe(51);
  });

  it('tells plan from apply for a body that is no change set by the path it was sent to', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const toApply = randomUUID();
    const toPlan = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: toApply }, requestBody: '{"changes": []}' }));
    j.add(b.post('plan', { status: 202, body: { operationId: toPlan }, requestBody: 'not json' }));
    j.finish();
    expect(j.operationConclusions().map((c) => [c.operationId, c.kind])).toEqual([
      [toApply, 'apply'],
      [toPlan, 'plan'],
    ]);
  });

  it('tells plan from apply for a body that is no change set sent below a base path, or with a trailing slash', () => {
    const j = judge();
    const b = new TranscriptBuilder('http://127.0.0.1:8080/apply-service');
    const toApply = randomUUID();
    const toPlan = randomUUID();
    const slashed = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: toApply }, requestBody: '{"changes": []}' }));
    j.add(b.post('plan', { status: 202, body: { operationId: toPlan }, requestBody: 'not json' }));
    const post = b.post('apply', { status: 202, body: { operationId: slashed }, requestBody: 'not json' });
    j.add({ ...post, request: { ...post.request, url: `${post.request.url}/` } });
    j.finish();
    expect(j.operationConclusions().map((c) => [c.operationId, c.kind])).toEqual([
      [toApply, 'apply'],
      [toPlan, 'plan'],
      [slashed, 'apply'],
    ]);
  });

  it('keeps no conclusion of work that ended in a final answer, and names that answer in the kept evidence', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: id, extra: 1 }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { at: 1_195, body: shopDbFinal('failed') }));
    expect(j.operationConclusions()).toEqual([]);
    expect(statusOf(j, 'accepted.only-operation-id')).toBe('warn');
    const events = j.snapshot().evidence.events;
    expect(events).toEqual([
      { type: 'poll-ended', at: T0 + 1_200, operationId: id, reason: 'final', acceptedSeq: 1, conclusion: 'the control plane recorded failed after 1.2s' },
    ]);
  });
});

describe('what the streaming judge counts of the traffic', () => {
  it('counts each exchange by its tag, requests of no kind apart, and reads of operations it never followed', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: CACHE_SET }));
    j.add(b.read(id, { body: IN_PROGRESS }));
    j.add(b.read(randomUUID(), { body: IN_PROGRESS }));
    j.other();
    j.other();
    expect(j.traffic()).toEqual({
      exchanges: 4,
      byTag: { plan: 1, apply: 1, poll: 2 },
      otherRequests: 2,
      unattachedReads: 1,
      changeSetTypes: { 'managed-resource/postgres': 1, 'managed-resource/redis': 1 },
      actions: { created: 1, removed: 1 },
      distinctChangeSets: 2,
      operations: { accepted: 1, open: 1, ended: { final: 0, lost: 0, unexpected: 0, deadline: 0, aborted: 0 } },
    });
  });

  it('counts a body with no kind and type under a name that says so', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: JSON.stringify({ changes: [{ id: 'shop-db', environment: 'test', action: 'updated' }] }) }));
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: JSON.stringify({ changes: [{ id: 'shop-db', environment: 'test', action: 'updated' }] }) }));
    expect(j.traffic().changeSetTypes).toEqual({ '(no kind and type)': 2 });
    expect(j.traffic().actions).toEqual({ updated: 2 });
    expect(j.traffic().distinctChangeSets).toBe(1);
  });

  it('hands a copy of the counts: what the caller does with it leaves the judge as it was', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    const seen = j.traffic();
    seen.byTag.plan = 99;
    seen.changeSetTypes['x'] = 1;
    seen.actions['x'] = 1;
    seen.operations.ended.final = 99;
    expect(j.traffic()).toMatchObject({ byTag: { plan: 1 }, changeSetTypes: { 'managed-resource/postgres': 1 }, actions: { created: 1 }, operations: { ended: { final: 0 } } });
    expect(j.traffic().changeSetTypes).not.toHaveProperty('x');
    expect(j.traffic().actions).not.toHaveProperty('x');
  });

  it('numbers exchanges by their place in the traffic, and keeps the number an exchange already has', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    const { seq: _seq, ...post } = b.post('apply', { status: 202, body: { operationId: id, extra: 1 }, requestBody: SHOP_DB_SET });
    j.add(post);
    const final = b.read(id, { body: shopDbFinal() });
    j.add({ ...final, seq: 40 });
    expect(j.snapshot().evidence.exchanges.map((exchange) => exchange.seq)).toEqual([1, 40]);
  });
});

describe('the streaming judge tells what it saw as it goes', () => {
  it('hears each change set the first time its bytes are seen, and goes on judging when the hearer throws', () => {
    const heard: SeenChangeSet[] = [];
    const j = judge({
      onChangeSet: (changeSet) => {
        heard.push(changeSet);
        throw new Error('disk full');
      },
    });
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.add(b.post('plan', { status: 500, body: 'boom', contentType: 'text/plain', requestBody: SHOP_DB_SET }));
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: CACHE_SET }));
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    expect(heard.map((changeSet) => changeSet.text)).toEqual([SHOP_DB_SET, CACHE_SET]);
    expect(j.traffic().distinctChangeSets).toBe(2);
    expect(j.ruleCounts()['answer.status']).toEqual({ exercised: 4, held: 3, broken: 1 });
  });

  it('hands each judged slice and its results to the listener, and goes on judging when the listener throws', () => {
    const told: { ids: string[]; seqs: number[] }[] = [];
    const j = judge({
      onJudged: (results: readonly RuleResult[], slice: Transcript) => {
        told.push({ ids: results.filter((r) => r.status === 'fail').map((r) => r.id), seqs: slice.exchanges.map((e) => e.seq) });
        throw new Error('console gone');
      },
    });
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('plan', { status: 500, body: 'boom', contentType: 'text/plain', requestBody: SHOP_DB_SET }));
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: shopDbFinal() }));
    expect(told).toEqual([
      { ids: ['answer.status'], seqs: [1] },
      { ids: [], seqs: [2, 3] },
    ]);
    expect(statusOf(j, 'answer.status')).toBe('fail');
  });
});

describe('the streaming judge judges the registration once, not per operation', () => {
  const VALID = { name: 'postgres-provisioner', url: 'https://postgres-provisioner.example.com', types: [{ kind: 'managed-resource', type: 'postgres' }], maxOperationDuration: 'PT5M' };

  function registered(value: unknown): StreamingJudge {
    const context = observedContext(
      { answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField('PT1M', undefined), registration: { file: 'registration.json', json: { ok: true, value } } },
      T0,
    );
    const j = new StreamingJudge({ context, selection: {}, changesPointer: '/changes' });
    const b = new TranscriptBuilder();
    for (let i = 0; i < 3; i++) {
      const id = randomUUID();
      j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
      j.add(b.read(id, { body: shopDbFinal() }));
    }
    return j;
  }

  it('counts a registration that holds as one situation held, however many operations the traffic had', () => {
    const j = registered(VALID);
    expect(statusOf(j, 'registration.body')).toBe('pass');
    expect(j.ruleCounts()['registration.body']).toEqual({ exercised: 1, held: 1, broken: 0 });
    expect(j.snapshot().ruleCounts['registration.body']).toEqual({ exercised: 1, held: 1, broken: 0 });
  });

  it('counts a registration that breaks a rule as one situation broken', () => {
    const j = registered({ ...VALID, name: '' });
    const result = j.results().find((r) => r.id === 'registration.body')!;
    expect(result.status).toBe('fail');
    expect(result.message).not.toMatch(/situations? observed/);
    expect(j.ruleCounts()['registration.body']).toEqual({ exercised: 1, held: 0, broken: 1 });
  });

  it('fails a registration with no maxOperationDuration on the first 202 the traffic had, and holds it when there was none', () => {
    const { maxOperationDuration: _none, ...withoutDuration } = VALID;
    const j = registered(withoutDuration);
    const result = j.results().find((r) => r.id === 'registration.max-operation-duration')!;
    expect(result.status).toBe('fail');
    expect(result.evidence.map((item) => item.exchanges)).toEqual([[1]]);
    const atOnce = new StreamingJudge({
      context: observedContext(
        { answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField('PT1M', undefined), registration: { file: 'registration.json', json: { ok: true, value: withoutDuration } } },
        T0,
      ),
      selection: {},
      changesPointer: '/changes',
    });
    atOnce.add(new TranscriptBuilder().post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    expect(statusOf(atOnce, 'registration.max-operation-duration')).toBe('pass');
  });

  it('counts nothing of a registration it was not given', () => {
    const j = judge();
    expect(statusOf(j, 'registration.body')).toBe('not-exercised');
    expect(j.ruleCounts()['registration.body']).toEqual({ exercised: 0, held: 0, broken: 0 });
  });
});

describe('the streaming judge finds an operationId given again across the traffic', () => {
  it('names the 202 that carried an id an earlier 202 gave, and why', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: shopDbFinal() }));
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: CACHE_SET }));
    const result = j.results().find((r) => r.id === 'accepted.operation-id-unique')!;
    expect(result.status).toBe('fail');
    expect(result.message).toBe(`1 of 2 situations observed broke it; the first: operationId ${id} given more than once`);
    expect(result.evidence).toEqual([{ note: `the 202 answer (#3) carried operationId ${id}, already given by an earlier 202 of the observed traffic`, exchanges: [3] }]);
    expect(result.count).toBe(1);
    expect(j.traffic().operations).toMatchObject({ accepted: 2, open: 0 });
    // Only the rule about ids judged across the traffic is broken by the id given again: the 202 itself is fine.
    expect(statusOf(j, 'accepted.only-operation-id')).toBe('pass');
    expect(statusOf(j, 'answer.status')).toBe('pass');
  });

  it("tells the listener the 202 giving an id again failed the rule, as the rule's level says", () => {
    const told: string[] = [];
    const j = judge({ onJudged: (results) => told.push(...results.filter((r) => r.id === 'accepted.operation-id-unique').map((r) => r.status)) });
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: shopDbFinal() }));
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: CACHE_SET }));
    expect(told).toEqual(['pass', 'fail']);
  });

  it('leaves accepted.operation-id-unique skipped when it was deselected, however often an id is given again', () => {
    const told: string[] = [];
    const j = judge({ selection: { skip: ['accepted.operation-id-unique'] }, onJudged: (results) => told.push(...results.filter((r) => r.id === 'accepted.operation-id-unique').map((r) => r.status)) });
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: shopDbFinal() }));
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: CACHE_SET }));
    expect(told).toEqual(['skip', 'skip']);
    expect(statusOf(j, 'accepted.operation-id-unique')).toBe('skip');
    expect(j.ruleCounts()['accepted.operation-id-unique']).toEqual({ exercised: 0, held: 0, broken: 0 });
  });

  it('keeps following the first operation when a 202 gives its id again while it runs, and judges the second alone', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: CACHE_SET }));
    expect(j.traffic().operations).toMatchObject({ accepted: 2, open: 1 });
    j.add(b.read(id, { body: shopDbFinal() }));
    expect(j.traffic().operations).toMatchObject({ open: 0, ended: { final: 1 } });
    expect(statusOf(j, 'accepted.operation-id-unique')).toBe('fail');
    expect(statusOf(j, 'final.results-match-changes')).toBe('pass');
  });
});

describe('the streaming judge counts the calls by how they were answered', () => {
  it('counts calls answered neither 200 nor 202 among the calls, in the reason a rule was not applicable', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.add(b.post('plan', { status: 500, body: 'boom', contentType: 'text/plain', requestBody: SHOP_DB_SET }));
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: CACHE_SET }));
    const stable = j.results().find((r) => r.id === 'operation.final-stable')!;
    expect(stable.status).toBe('not-applicable');
    expect(stable.message).toMatch(/every plan and apply call answered 200 or 202 was answered 200 at once \(2 of 3 calls; the other one got another status or no answer\)/);
  });

  it('counts a call that got no answer among the calls, answered neither way', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.add(b.post('apply', { error: { kind: 'reset', message: 'socket hang up' }, requestBody: SHOP_DB_SET }));
    expect(j.traffic().byTag).toEqual({ plan: 1, apply: 1, poll: 0 });
    expect(j.results().find((r) => r.id === 'operation.final-stable')!.message).toMatch(/\(1 of 2 calls; the other one got another status or no answer\)/);
  });

  it('leaves a body that is no change set out of the calls counted', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.add(b.post('plan', { status: 400, body: { error: 'bad' }, requestBody: '{"changes": []}' }));
    expect(j.results().find((r) => r.id === 'operation.final-stable')!.message).toMatch(/the one plan or apply call was answered 200 at once/);
  });
});

describe('the streaming judge remembers the latest operations that ended in a final answer', () => {
  it('judges a read after the final answer of any of the latest 256 as one, and a read of an older one as a read it does not follow', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const ids = Array.from({ length: 257 }, () => randomUUID());
    for (const id of ids) {
      j.add(b.post('plan', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
      j.add(b.read(id, { body: shopDbFinal() }));
    }
    j.add(b.read(ids[1]!, { body: IN_PROGRESS }));
    expect(statusOf(j, 'operation.no-in-progress-after-final')).toBe('fail');
    expect(j.traffic().unattachedReads).toBe(0);
    j.add(b.read(ids[0]!, { body: IN_PROGRESS }));
    expect(j.traffic().unattachedReads).toBe(1);
    expect(j.ruleCounts()['operation.no-in-progress-after-final']).toEqual({ exercised: 1, held: 0, broken: 1 });
  });
});

describe('the streaming judge hands its evidence in the order of the traffic', () => {
  it('orders the exchanges of cases kept as their operations ended by their place in the observation', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const partial = { ...IN_PROGRESS, results: [{ id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'done' }] };
    const first = randomUUID();
    const second = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: first }, requestBody: SHOP_DB_SET }));
    j.add(b.post('apply', { status: 202, body: { operationId: second }, requestBody: SHOP_DB_SET }));
    j.add(b.read(second, { body: partial }));
    j.add(b.read(second, { body: shopDbFinal() }));
    j.add(b.read(first, { body: partial }));
    j.add(b.read(first, { body: shopDbFinal() }));
    expect(j.evidence.exchanges.map((e) => e.seq)).toEqual([2, 3, 4, 1, 5, 6]);
    const snapshot = j.snapshot();
    expect(snapshot.evidence.exchanges.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(snapshot.evidence.events.map((e) => (e.type === 'poll-ended' ? e.operationId : e.type))).toEqual([second, first]);
    // A copy: what the caller does with it leaves the judge's evidence as it was.
    snapshot.evidence.events.pop();
    snapshot.evidence.exchanges.pop();
    expect(j.evidence.events).toHaveLength(2);
    expect(j.evidence.exchanges).toHaveLength(6);
  });
});

describe('the streaming judge holds an id answered nothing but 5xx against reads of known operations only', () => {
  const POLL = 10_000;

  it('does not take a call answered meanwhile for proof that reads were answered', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('apply', { at: 0, status: 202, body: { operationId: randomUUID() }, requestBody: SHOP_DB_SET }));
    for (const at of [10, POLL, 2 * POLL]) {
      j.add(b.read('not-a-uuid', { at, status: 500, body: 'boom', contentType: 'text/plain' }));
      if (at < 2 * POLL) j.add(b.post('plan', { at: at + 100, status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    }
    expect(statusOf(j, 'operation.malformed-id')).toBe('not-exercised');
  });
});
