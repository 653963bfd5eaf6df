import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StreamingJudge } from '../../src/observe/streaming-judge.js';
import { judgeRules, registrationRuleIds } from '../../src/rules/index.js';
import { CASES_KEPT, NEVER_HAD } from '../../src/observe/rule-tally.js';
import { observedContext } from '../../src/observe/observe.js';
import { maxOperationDurationField } from '../../src/config/fields.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { Transcript } from '../../src/transcript/transcript.js';
import type { JudgeContext } from '../../src/core/judge-context.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { IN_PROGRESS, shopDbFinal, T0, TranscriptBuilder, type AnswerSpec } from '../support/transcript-builder.js';

const SHOP_DB_SET = JSON.stringify({ kind: 'managed-resource', type: 'postgres', changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] });

function judge(maxOperationDuration = 'PT1M'): StreamingJudge {
  return new StreamingJudge({
    context: observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField(maxOperationDuration, undefined) }, T0),
    selection: {},
    changesPointer: '/changes',
  });
}

/** One operation as the control plane sees it: the 202, `inProgress` reads, then `last` (a final answer by default). */
function operation(b: TranscriptBuilder, id: string, options: { inProgress?: Record<string, unknown>; reads?: number; last?: 'final' | 'none' } = {}): Exchange[] {
  const exchanges = [b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET })];
  for (let i = 0; i < (options.reads ?? 1); i++) exchanges.push(b.read(id, { body: options.inProgress ?? IN_PROGRESS }));
  if (options.last !== 'none') exchanges.push(b.read(id, { body: shopDbFinal() }));
  return exchanges;
}

function statusOf(j: StreamingJudge, id: string): string {
  return j.results().find((result) => result.id === id)!.status;
}

describe('the streaming judge', () => {
  it('judges each operation when it ends, counts what held, and names what the traffic never had', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    for (let i = 0; i < 3; i++) for (const exchange of operation(b, randomUUID())) j.add(exchange);
    expect(j.traffic().operations).toEqual({ accepted: 3, open: 0, ended: { final: 3, lost: 0, unexpected: 0, deadline: 0, aborted: 0 } });
    expect(j.ruleCounts()['operation.in-progress-results-empty']).toEqual({ exercised: 3, held: 3, broken: 0 });
    expect(statusOf(j, 'final.results-match-changes')).toBe('pass');
    const unknown = j.results().find((result) => result.id === 'operation.unknown-404')!;
    expect(unknown.status).toBe('not-exercised');
    expect(unknown.message.startsWith(NEVER_HAD)).toBe(true);
    expect(j.traffic().changeSetTypes).toEqual({ 'managed-resource/postgres': 3 });
    expect(j.traffic().actions).toEqual({ created: 3 });
    expect(j.traffic().distinctChangeSets).toBe(1);
    // Nothing failed: no exchange is kept.
    expect(j.evidence.exchanges).toHaveLength(0);
  });

  it('ends an operation at a read the control plane cannot use, blamed on operation.body and not on the deadline', () => {
    const j = judge('PT1M');
    const b = new TranscriptBuilder();
    const id = randomUUID();
    j.add(b.post('apply', { status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: { ...shopDbFinal(), outcome: 'SUCCEEDED' } }));
    expect(j.traffic().operations.ended).toEqual({ final: 0, lost: 0, unexpected: 1, deadline: 0, aborted: 0 });
    expect(j.traffic().operations.open).toBe(0);
    expect(statusOf(j, 'operation.body')).toBe('fail');
    expect(statusOf(j, 'operation.within-max-duration')).not.toBe('fail');
  });

  it('calls a rule about 200 answers not applicable when every observed call was accepted, and judges it once one is answered at once', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    for (let i = 0; i < 2; i++) for (const exchange of operation(b, randomUUID())) j.add(exchange);
    const finalBody = j.results().find((result) => result.id === 'final.body')!;
    expect(finalBody.status).toBe('not-applicable');
    expect(finalBody.message).toMatch(/202/);
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    expect(statusOf(j, 'final.body')).toBe('pass');
  });

  it('keeps the evidence of a few failed cases only, however many there are, and counts them all', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const partial = { ...IN_PROGRESS, results: [{ id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'done' }] };
    for (let i = 0; i < 100; i++) for (const exchange of operation(b, randomUUID(), { inProgress: partial, reads: 2 })) j.add(exchange);
    const failed = j.results().find((result) => result.id === 'operation.in-progress-results-empty')!;
    expect(failed.status).toBe('fail');
    expect(failed.count).toBe(200);
    expect(failed.message).toMatch(/^100 of 100 situations observed broke it/);
    expect(new Set(failed.evidence.map((item) => item.note)).size).toBeLessThanOrEqual(CASES_KEPT * 2);
    for (const item of failed.evidence) for (const seq of item.exchanges) expect(j.evidence.bySeq(seq)?.tag).toBe('poll');
    // Each case kept whole (its 202 and every read), so the evidence judged again breaks the same rule.
    expect(j.evidence.exchanges.length).toBeLessThanOrEqual(CASES_KEPT * 4);
    expect(j.evidence.exchanges.filter((exchange) => exchange.response?.status === 202).length).toBe(CASES_KEPT);
    // Judged again alone, in the context of its change sets, the evidence breaks the rule, and the others hold.
    const context = { ...observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, T0), changeSets: j.evidenceChangeSets() };
    expect(j.evidenceChangeSets().map((changeSet) => changeSet.changes)).toEqual([[{ id: 'shop-db', environment: 'test' }]]);
    const again = judgeRules(j.evidence, context, {});
    expect(again.find((result) => result.id === 'operation.in-progress-results-empty')!.status).toBe('fail');
    expect(again.find((result) => result.id === 'final.results-match-changes')!.status).toBe('pass');
  });

  it('finds an operationId given twice across operations, with only a set of ids kept', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    for (const exchange of operation(b, id)) j.add(exchange);
    for (const exchange of operation(b, id.toUpperCase())) j.add(exchange);
    expect(statusOf(j, 'accepted.operation-id-unique')).toBe('fail');
    expect(j.ruleCounts()['accepted.operation-id-unique']).toEqual({ exercised: 2, held: 1, broken: 1 });
  });

  it('ends an operation at its deadline, on the clock it is given, and fails operation.within-max-duration', () => {
    const j = judge('PT1S');
    const b = new TranscriptBuilder();
    for (const exchange of operation(b, randomUUID(), { reads: 2, last: 'none' })) j.add(exchange);
    expect(j.traffic().operations.open).toBe(1);
    j.sweep(T0 + 500);
    expect(j.traffic().operations.open).toBe(1);
    j.sweep(T0 + 2000);
    expect(j.traffic().operations).toMatchObject({ open: 0, ended: { deadline: 1 } });
    expect(statusOf(j, 'operation.within-max-duration')).toBe('fail');
    expect(j.operationConclusions()[0]!.reason).toBe('deadline');
  });

  it('judges an operation still open at the end on what was seen, without blaming its end', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    for (const exchange of operation(b, randomUUID(), { reads: 2, last: 'none' })) j.add(exchange);
    j.finish();
    expect(j.traffic().operations.ended.aborted).toBe(1);
    expect(statusOf(j, 'operation.in-progress-results-empty')).toBe('pass');
    expect(statusOf(j, 'operation.within-max-duration')).toBe('not-exercised');
  });

  it('judges a read after the final answer as one, and a read of an id it never saw on its own', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    for (const exchange of operation(b, id)) j.add(exchange);
    j.add(b.read(id, { body: IN_PROGRESS }));
    expect(statusOf(j, 'operation.no-in-progress-after-final')).toBe('fail');
    j.add(b.read(randomUUID(), { status: 404, body: 'not here', contentType: 'text/plain' }));
    expect(j.traffic().unattachedReads).toBe(1);
    expect(statusOf(j, 'operation.404-identifiable')).toBe('advice');
  });

  it('judges a read after the final answer by every rule a run judges it by', () => {
    const context = observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, T0);
    const readsAgain: Record<string, AnswerSpec> = {
      'the final answer labelled text/plain': { body: shopDbFinal(), contentType: 'text/plain' },
      'a final answer with a result too many': { body: { ...shopDbFinal(), results: [...(shopDbFinal().results as unknown[]), { id: 'cache', environment: 'test', outcome: 'succeeded', description: 'done' }] } },
      'a 500': { status: 500, body: 'boom', contentType: 'text/plain' },
      'in_progress without a note': { body: { ...IN_PROGRESS, description: '' } },
      'a 404 page': { status: 404, body: 'gone', contentType: 'text/plain' },
    };
    for (const [what, again] of Object.entries(readsAgain)) {
      const j = judge();
      const b = new TranscriptBuilder();
      const id = randomUUID();
      const exchanges = [...operation(b, id), b.read(id, again)];
      for (const exchange of exchanges) j.add(exchange);
      // A run's own read after the final answer is a probe tagged so; the observer tags the control plane's so too.
      const driven = new Transcript(exchanges.map((e, i) => (i === exchanges.length - 1 ? { ...e, tag: 'read-after-final' as const, probe: true } : e)));
      const run = judgeRules(driven, { ...context, changeSets: [{ name: 'shop-db', changes: [{ id: 'shop-db', environment: 'test' }] }] }, {});
      const observed = new Map(j.results().map((result) => [result.id, result.status]));
      expect(run.filter((result) => observed.get(result.id) !== result.status).map((result) => `${result.id}: run ${result.status}, observe ${observed.get(result.id)}`), what).toEqual([]);
    }
  });

  it('fails operation.body on a read after the final answer labelled text/plain, as a run does', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    for (const exchange of operation(b, id)) j.add(exchange);
    j.add(b.read(id, { body: shopDbFinal(), contentType: 'text/plain' }));
    expect(statusOf(j, 'operation.body')).toBe('fail');
    expect(j.ruleCounts()['operation.body']).toEqual({ exercised: 2, held: 1, broken: 1 });
  });

  it('judges a call answered at once alone, at once', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.add(b.post('plan', { status: 500, body: 'boom', contentType: 'text/plain', requestBody: SHOP_DB_SET }));
    expect(j.ruleCounts()['answer.status']).toEqual({ exercised: 2, held: 1, broken: 1 });
    expect(statusOf(j, 'final.body')).toBe('pass');
    expect(j.traffic().operations.accepted).toBe(0);
  });
});

describe('the streaming judge numbers its evidence as the observation did', () => {
  it('shows an exchange that several failed cases keep under one number, its place in the traffic', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    // #1 the 202 (an extra field breaks accepted.only-operation-id), #2 the final answer, #3 and #4 reads after it that relapse.
    j.add(b.post('apply', { status: 202, body: { operationId: id, extra: 1 }, requestBody: SHOP_DB_SET }));
    j.add(b.read(id, { body: shopDbFinal() }));
    j.add(b.read(id, { body: IN_PROGRESS }));
    j.add(b.read(id, { body: IN_PROGRESS }));
    expect(statusOf(j, 'accepted.only-operation-id')).toBe('warn');
    expect(statusOf(j, 'operation.no-in-progress-after-final')).toBe('fail');
    const kept = j.snapshot().evidence.exchanges;
    expect(kept.map((exchange) => exchange.seq)).toEqual([1, 2, 3, 4]);
    expect(kept.filter((exchange) => exchange.response?.status === 202)).toHaveLength(1);
    const relapse = j.results().find((result) => result.id === 'operation.no-in-progress-after-final')!;
    expect(relapse.evidence.map((item) => item.exchanges)).toEqual([[3, 2], [4, 2]]);
    expect(j.evidence.bySeq(4)?.sentAt).toBe(kept[3]!.sentAt);
  });
});

describe('the streaming judge calls a rule not applicable only for the way the provisioner never chose in the whole observation', () => {
  const AFTER_FINAL = ['operation.final-stable', 'operation.no-in-progress-after-final', 'operation.final-retained', 'apply.repeat-while-running'];

  it('leaves rules about operations not exercised when some calls were answered 202, however many were answered at once', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    for (let i = 0; i < 4; i++) for (const exchange of operation(b, randomUUID())) j.add(exchange);
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    const run = judgeRules(b.transcript, { ...observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, T0), changeSets: [] });
    for (const id of AFTER_FINAL) {
      const result = j.results().find((r) => r.id === id)!;
      expect(result.status, id).toBe('not-exercised');
      expect(result.message, id).not.toMatch(/answered 200 at once/);
      // Judged whole, as run judges its transcript, the same exchanges say the same.
      expect(run.find((r) => r.id === id)!.status, id).toBe('not-exercised');
    }
  });

  it('counts every observed call in the reason when all were answered the other way', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    for (let i = 0; i < 3; i++) j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    const stable = j.results().find((r) => r.id === 'operation.final-stable')!;
    expect(stable.status).toBe('not-applicable');
    expect(stable.message).toMatch(/all 3 plan and apply calls were answered 200 at once/);
    expect(stable.message).not.toMatch(/the one plan or apply call/);
  });
});

describe('the streaming judge judges a change set the traffic sent again after the first call ended', () => {
  /** An apply accepted and read to `final`, sent `at` ms from the start; with `suite`, the kit's run would have sent it. */
  function apply(b: TranscriptBuilder, at: number, final: Record<string, unknown>, extra: { suite?: string; repeatOf?: number } = {}): Exchange[] {
    const id = randomUUID();
    const post = b.post('apply', { at, status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET, ...extra });
    return [post, b.read(id, { at: at + 10, body: IN_PROGRESS, ...(extra.suite && { suite: extra.suite }) }), b.read(id, { at: at + 20, body: final, ...(extra.suite && { suite: extra.suite }) })];
  }

  it('holds apply.idempotent when the apply sent again 17 ms after the first final answer ends the same way, as run judges it', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const first = apply(b, 0, shopDbFinal());
    for (const exchange of [...first, ...apply(b, first[2]!.endedAt - T0 + 17, shopDbFinal())]) j.add(exchange);
    expect(statusOf(j, 'apply.idempotent')).toBe('pass');
    const ran = new TranscriptBuilder();
    const kitFirst = apply(ran, 0, shopDbFinal());
    apply(ran, kitFirst[2]!.endedAt - T0 + 17, shopDbFinal(), { suite: SITUATION_SUITES.repeatApply, repeatOf: kitFirst[0]!.seq });
    expect(judgeRules(ran.transcript, runContext()).find((r) => r.id === 'apply.idempotent')!.status).toBe('pass');
  });

  it('fails apply.idempotent when the apply sent again ends another way', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const first = apply(b, 0, shopDbFinal());
    for (const exchange of [...first, ...apply(b, first[2]!.endedAt - T0 + 17, shopDbFinal('failed'))]) j.add(exchange);
    const result = j.results().find((r) => r.id === 'apply.idempotent')!;
    expect(result.status).toBe('fail');
    // The evidence names the exchanges as the observation numbered them: the repeat is #4, the first final answer #3.
    expect(result.evidence[0]!.exchanges).toEqual([4, 3, 6]);
  });

  it('judges a change set sent again while the first was still running by apply.repeat-while-running, not apply.idempotent', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    for (const exchange of [...apply(b, 0, shopDbFinal()), ...apply(b, 5, shopDbFinal())].sort((x, y) => x.endedAt - y.endedAt)) j.add(exchange);
    expect(statusOf(j, 'apply.idempotent')).toBe('not-exercised');
    expect(statusOf(j, 'apply.repeat-while-running')).toBe('pass');
  });

  it('warns by apply.repeat-while-running when the apply sent again while the first ran ends another way, as run judges it', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    for (const exchange of [...apply(b, 0, shopDbFinal()), ...apply(b, 5, shopDbFinal('failed'))].sort((x, y) => x.endedAt - y.endedAt)) j.add(exchange);
    expect(statusOf(j, 'apply.repeat-while-running')).toBe('warn');
    const ran = new TranscriptBuilder();
    const kitFirst = apply(ran, 0, shopDbFinal());
    apply(ran, 5, shopDbFinal('failed'), { suite: SITUATION_SUITES.repeatWhileRunning, repeatOf: kitFirst[0]!.seq });
    expect(judgeRules(ran.transcript, runContext()).find((r) => r.id === 'apply.repeat-while-running')!.status).toBe('warn');
  });

  it('judges an apply sent while the first ran, whose 202 came only after the first ended, by apply.repeat-while-running', () => {
    for (const [last, status] of [[shopDbFinal(), 'pass'], [shopDbFinal('failed'), 'warn']] as const) {
      const j = judge();
      const b = new TranscriptBuilder();
      const first = apply(b, 0, shopDbFinal());
      // The repeat went out while the first ran; its slow 202 ended after the first's final answer.
      const again = apply(b, 5, last);
      const slow: Exchange = { ...again[0]!, endedAt: first[2]!.endedAt + 1 };
      for (const exchange of [...first, slow, ...again.slice(1)].sort((x, y) => x.endedAt - y.endedAt)) j.add(exchange);
      expect(statusOf(j, 'apply.repeat-while-running')).toBe(status);
      expect(statusOf(j, 'apply.idempotent')).toBe('not-exercised');
    }
  });

  it('holds an apply sent after both earlier ones ended to the first, not to a repeat refused at once while the first ran', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const first = apply(b, 0, shopDbFinal());
    const refused = b.post('apply', { at: 3, took: 2, status: 200, body: shopDbFinal('failed'), requestBody: SHOP_DB_SET });
    const again = apply(b, first[2]!.endedAt - T0 + 17, shopDbFinal());
    for (const exchange of [...first, refused, ...again].sort((x, y) => x.endedAt - y.endedAt)) j.add(exchange);
    expect(statusOf(j, 'apply.repeat-while-running')).toBe('warn');
    expect(statusOf(j, 'apply.idempotent')).toBe('pass');
    const differs = judge();
    const c = new TranscriptBuilder();
    const one = apply(c, 0, shopDbFinal());
    const late = apply(c, one[2]!.endedAt - T0 + 17, shopDbFinal('failed'));
    for (const exchange of [...one, c.post('apply', { at: 3, took: 2, status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }), ...late].sort((x, y) => x.endedAt - y.endedAt)) differs.add(exchange);
    expect(statusOf(differs, 'apply.idempotent')).toBe('fail');
  });

  it('leaves the answer to an apply sent again to the repeat rules, as a run does: a 409 fails apply.idempotent, not answer.status', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const first = apply(b, 0, shopDbFinal());
    for (const exchange of first) j.add(exchange);
    j.add(b.post('apply', { at: first[2]!.endedAt - T0 + 17, status: 409, body: { error: 'already applied' }, requestBody: SHOP_DB_SET }));
    expect(statusOf(j, 'apply.idempotent')).toBe('fail');
    expect(statusOf(j, 'answer.status')).toBe('pass');
    j.add(b.post('apply', { status: 409, body: { error: 'busy' }, requestBody: JSON.stringify({ changes: [{ id: 'cache', environment: 'test', action: 'created' }] }) }));
    expect(statusOf(j, 'answer.status')).toBe('fail');
  });

  it('judges plan.repeatable on plans of one change set answered at once, and fails it when they differ', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    expect(statusOf(j, 'plan.repeatable')).toBe('pass');
    j.add(b.post('plan', { status: 200, body: shopDbFinal('failed'), requestBody: SHOP_DB_SET }));
    expect(statusOf(j, 'plan.repeatable')).toBe('warn');
    expect(judgeRules(b.transcript, runContext()).find((r) => r.id === 'plan.repeatable')!.status).toBe('warn');
  });
});

function runContext(): JudgeContext {
  return { ...observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, T0), changeSets: [] };
}

describe('the streaming judge judges reads of ids the observation never saw accepted', () => {
  /** Past the deadline and a poll interval from the start (PT1M, 10 s): no work accepted before the observation is followed any more. */
  const LATE = 71_000;

  it('judges a late read of a UUID never accepted as an unknown id, and a read of an id that is no UUID as a malformed one', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    for (const exchange of operation(b, randomUUID())) j.add(exchange);
    j.add(b.read(randomUUID(), { at: LATE, status: 404, body: { error: 'unknown operation' } }));
    j.add(b.read('not-an-id', { at: LATE + 10, status: 400, body: { error: 'not a UUID' } }));
    expect(statusOf(j, 'operation.unknown-404')).toBe('pass');
    expect(statusOf(j, 'operation.malformed-id')).toBe('pass');
    j.add(b.read(randomUUID(), { at: LATE + 20, status: 200, body: IN_PROGRESS }));
    j.add(b.read('also-not-an-id', { at: LATE + 30, status: 500, body: { error: 'boom' } }));
    expect(statusOf(j, 'operation.unknown-404')).toBe('fail');
    expect(j.traffic().unattachedReads).toBe(4);
    // The same reads, made by run's probes, are judged the same way.
    const ran = new TranscriptBuilder();
    operation(ran, randomUUID());
    ran.read(randomUUID(), { at: LATE, status: 404, body: { error: 'unknown operation' }, tag: 'read-unknown' });
    ran.read(randomUUID(), { at: LATE + 20, status: 200, body: IN_PROGRESS, tag: 'read-unknown' });
    expect(judgeRules(ran.transcript, runContext()).find((r) => r.id === 'operation.unknown-404')!.status).toBe('fail');
  });

  it('does not call an id unknown when the provisioner may have issued it before the observation began, and says why', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const before = randomUUID();
    j.add(b.read(before, { at: 1_000, status: 200, body: IN_PROGRESS }));
    // Read again once the observation is old enough: its first read came too early for it to be known unknown.
    j.add(b.read(before, { at: LATE, status: 200, body: shopDbFinal() }));
    const unknown = j.results().find((r) => r.id === 'operation.unknown-404')!;
    expect(unknown.status).toBe('not-exercised');
    expect(unknown.message).toMatch(/1m 10s|70\.0s|1m10s/);
  });

  it('judges reads of ids that are no UUID made before any call was accepted once the first id given is a UUID', () => {
    for (const [status, expected] of [[404, 'pass'], [200, 'warn']] as const) {
      const j = judge();
      const b = new TranscriptBuilder();
      j.add(b.read('not-an-id', { status, body: status === 200 ? IN_PROGRESS : { error: 'not a UUID' } }));
      expect(statusOf(j, 'operation.malformed-id')).toBe('not-exercised');
      for (const exchange of operation(b, randomUUID())) j.add(exchange);
      expect(statusOf(j, 'operation.malformed-id')).toBe(expected);
    }
  });

  it('does not call an id malformed when the observation ends before the provisioner gave any id, nor when its first id is no UUID', () => {
    const early = judge();
    const b = new TranscriptBuilder();
    early.add(b.read('not-an-id', { status: 200, body: IN_PROGRESS }));
    early.finish();
    expect(statusOf(early, 'operation.malformed-id')).toBe('not-exercised');
    expect(early.traffic().unattachedReads).toBe(1);
    const other = judge();
    other.add(b.read('op-0', { status: 200, body: IN_PROGRESS }));
    for (const exchange of operation(b, 'op-1')) other.add(exchange);
    expect(statusOf(other, 'operation.malformed-id')).toBe('not-exercised');
  });

  it('does not call an id malformed when the provisioner was seen giving ids that are no UUID', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    for (const exchange of operation(b, 'op-1')) j.add(exchange);
    j.add(b.read('op-0', { at: LATE, status: 200, body: shopDbFinal() }));
    expect(statusOf(j, 'operation.malformed-id')).toBe('not-exercised');
  });
});

describe('the streaming judge speaks of the traffic', () => {
  it('gives reasons that name no flag of run for what the traffic never had', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    for (const exchange of operation(b, randomUUID())) j.add(exchange);
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.finish();
    const unjudged = j.results().filter((r) => r.status === 'not-exercised' || r.status === 'not-applicable');
    expect(unjudged.map((r) => r.id)).toEqual(expect.arrayContaining(['capacity.burst', 'durability.survives-restart']));
    for (const result of unjudged) expect(result.message, result.id).not.toMatch(/--(burst|restart-command|plan-only)|give --/);
  });
});

describe('the streaming judge blames reads after a final answer by what they got', () => {
  it('judges a 410 to a read after the final answer against the rules about keeping and repeating it', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const id = randomUUID();
    for (const exchange of operation(b, id)) j.add(exchange);
    j.add(b.read(id, { status: 410, body: { error: 'gone' } }));
    expect(statusOf(j, 'operation.final-retained')).toBe('advice');
    expect(statusOf(j, 'operation.final-stable')).toBe('fail');
    expect(statusOf(j, 'operation.status')).toBe('pass');
  });
});

describe('the streaming judge judges bad input the traffic had as a run judges its probes', () => {
  it('holds input.malformed-json on a body that is not JSON answered 400, and leaves answer.status to valid change sets', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 400, body: { error: 'not JSON' }, requestBody: '{"changes": [' }));
    expect(statusOf(j, 'input.malformed-json')).toBe('pass');
    expect(statusOf(j, 'answer.status')).toBe('not-exercised');
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: "{'changes': []}" }));
    expect(statusOf(j, 'input.malformed-json')).toBe('warn');
  });

  it('holds input.invalid-change-set on JSON that is no change set answered 400, and warns when one is answered 200 with a final answer', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    const invalid = JSON.stringify({ kind: 'managed-resource', type: 'postgres', changes: [{ id: 'shop-db', environment: 'test', action: 'renamed' }] });
    j.add(b.post('apply', { status: 400, body: { error: 'bad action' }, requestBody: invalid }));
    j.add(b.post('apply', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    expect(statusOf(j, 'input.invalid-change-set')).toBe('pass');
    expect(statusOf(j, 'answer.status')).toBe('pass');
    expect(j.ruleCounts()['answer.status']).toEqual({ exercised: 1, held: 1, broken: 0 });
    j.add(b.post('apply', { status: 200, body: shopDbFinal(), requestBody: JSON.stringify({ changes: [] }) }));
    expect(statusOf(j, 'input.invalid-change-set')).toBe('warn');
    expect(statusOf(j, 'answer.status')).toBe('pass');
  });
});

describe('the streaming judge judges a bad body or an id answered nothing but 5xx as a run judges its probes sent again', () => {
  const POLL = 10_000;

  it('warns by input.invalid-change-set when one body got only 500 over two poll intervals while other calls were answered', () => {
    for (const [answeredMeanwhile, expected] of [[true, 'warn'], [false, 'not-exercised']] as const) {
      const j = judge();
      const b = new TranscriptBuilder();
      for (const at of [0, POLL, 2 * POLL]) {
        j.add(b.post('apply', { at, status: 500, body: 'boom', contentType: 'text/plain', requestBody: '{"changes": []}' }));
        if (answeredMeanwhile && at < 2 * POLL) j.add(b.post('plan', { at: at + 100, status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
      }
      expect(statusOf(j, 'input.invalid-change-set')).toBe(expected);
    }
  });

  it('warns by operation.malformed-id when one id got only 500 over two poll intervals while reads of known operations were answered', () => {
    for (const [answeredMeanwhile, expected] of [[true, 'warn'], [false, 'not-exercised']] as const) {
      const j = judge();
      const b = new TranscriptBuilder();
      const id = randomUUID();
      j.add(b.post('apply', { at: 0, status: 202, body: { operationId: id }, requestBody: SHOP_DB_SET }));
      for (const at of [10, POLL, 2 * POLL]) {
        j.add(b.read('not-a-uuid', { at, status: 500, body: 'boom', contentType: 'text/plain' }));
        if (answeredMeanwhile && at < 2 * POLL) j.add(b.read(id, { at: at + 100, body: IN_PROGRESS }));
      }
      expect(statusOf(j, 'operation.malformed-id')).toBe(expected);
    }
  });
});

describe('the streaming judge at its edges', () => {
  it('judges the registration once even when the traffic never accepted an operation', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    const once = judgeRules(new Transcript([]), { ...observedContext({ answerTimeoutMs: 10_000, pollIntervalMs: 10_000, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, T0), changeSets: [] }, {});
    const registration = once.filter((result) => registrationRuleIds().includes(result.id));
    expect(registration.length).toBeGreaterThan(0);
    for (const expected of registration) {
      const got = j.results().find((result) => result.id === expected.id)!;
      expect({ id: got.id, status: got.status, message: got.message }).toEqual({ id: expected.id, status: expected.status, message: expected.message });
    }
  });

  it('marks an apply sent again as a repeat, and leaves a plan sent again an everyday call', () => {
    const j = judge();
    const b = new TranscriptBuilder();
    j.add(b.post('plan', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    j.add(b.post('plan', { status: 503, body: { message: 'busy' }, requestBody: SHOP_DB_SET }));
    expect(statusOf(j, 'answer.status')).toBe('fail');
    const applies = judge();
    applies.add(b.post('apply', { status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }));
    applies.add(b.post('apply', { status: 503, body: { message: 'busy' }, requestBody: SHOP_DB_SET }));
    expect(statusOf(applies, 'answer.status')).toBe('pass');
  });
});
