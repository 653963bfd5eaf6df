import { describe, expect, it } from 'vitest';
import { applyIdempotent, applyRepeatWhileRunning, planRepeatable } from '../../src/rules/catalog/repeats.js';
import type { Judgement, Rule } from '../../src/rules/types.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { IN_PROGRESS, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

const FIRST_ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const REPEAT_ID = '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d';
const OTHER_ID = '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
const AGAIN = SITUATION_SUITES.repeatApply;
const WHILE = SITUATION_SUITES.repeatWhileRunning;

function judge(rule: Rule, b: TranscriptBuilder, overrides = {}): Judgement {
  return rule.judge(b.transcript, context(overrides));
}

function brokenOf(judgement: Judgement): { message: string; notes: string[]; seqs: number[][]; count: number | undefined } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { message: judgement.message, notes: judgement.evidence.map((e) => e.note), seqs: judgement.evidence.map((e) => e.exchanges), count: judgement.count };
}

function applied(outcome: 'succeeded' | 'failed' = 'succeeded', outputs: Record<string, unknown> = { url: 'x' }): Record<string, unknown> {
  return { outcome, description: 'Applied.', results: [{ id: 'shop-db', environment: 'test', outcome, description: 'Applied shop-db.', outputs }] };
}

describe('apply.idempotent: which repeats it compares', () => {
  it('counts only applies of the repeat-after-end suite that name a first POST present in the transcript', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { body: applied() });
    // A plan marked as a repeat, a repeat of the other suite, and a repeat of a seq that is not there: none is compared.
    b.post('plan', { suite: AGAIN, repeatOf: first.seq, body: applied('failed') });
    b.post('apply', { suite: WHILE, repeatOf: first.seq, body: applied('failed') });
    b.post('apply', { suite: AGAIN, repeatOf: 99, body: applied('failed') });
    // An apply of the suite without repeatOf is not a repeat either.
    b.post('apply', { suite: AGAIN, body: applied('failed') });
    expect(judge(applyIdempotent, b)).toEqual({ outcome: 'not-exercised', message: 'no apply was sent again after the first had ended' });
  });

  it('counts every repeat in the held message', () => {
    const b = new TranscriptBuilder();
    const one = b.post('apply', { body: applied() });
    const two = b.post('apply', { changeSet: 'web', body: applied() });
    b.post('apply', { suite: AGAIN, repeatOf: one.seq, body: applied() });
    b.post('apply', { suite: AGAIN, repeatOf: two.seq, changeSet: 'web', body: applied() });
    expect(judge(applyIdempotent, b)).toEqual({
      outcome: 'held',
      message: '2 change sets were applied again after the first apply ended: same outcome and outputs for every change',
    });
  });

  it('says how many of how many repeats broke it, with a count of the faults only', () => {
    const b = new TranscriptBuilder();
    const one = b.post('apply', { body: applied() });
    const two = b.post('apply', { changeSet: 'web', body: applied() });
    b.post('apply', { suite: AGAIN, repeatOf: one.seq, body: applied() });
    const drift = b.post('apply', { suite: AGAIN, repeatOf: two.seq, changeSet: 'web', body: applied('failed') });
    const { message, seqs, count, notes } = brokenOf(judge(applyIdempotent, b));
    expect(message).toBe('1 of 2 applies sent again after the first had ended did not give the same end state');
    expect(count).toBe(1);
    // Both ends were answers to the POSTs themselves: the repeat is shown once.
    expect(seqs).toEqual([[drift.seq, two.seq]]);
    expect(notes).toEqual([`web: the first apply (#${two.seq}) and the one sent again (#${drift.seq}) ended differently: shop-db in test: outcome "succeeded" vs "failed"`]);

    const single = new TranscriptBuilder();
    const first = single.post('apply', { body: applied() });
    single.post('apply', { suite: AGAIN, repeatOf: first.seq, body: applied('failed') });
    expect(brokenOf(judge(applyIdempotent, single)).message).toBe('1 of 1 apply sent again after the first had ended did not give the same end state');
  });

  it('names a change set it has no name for by the seq of the first POST', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { status: 409, body: {} });
    delete first.changeSet;
    b.post('apply', { suite: AGAIN, repeatOf: first.seq, body: applied() });
    expect(judge(applyIdempotent, b).message).toBe(`no apply was sent again after the first had ended: the first apply of the change set of #${first.seq} answered 409`);
  });

  it('says each reason it could not judge once, and every different reason', () => {
    const b = new TranscriptBuilder();
    const refused = b.post('apply', { status: 409, body: {} });
    const broke = b.post('apply', { changeSet: 'web', error: { kind: 'reset', message: 'socket hang up' } });
    b.post('apply', { suite: AGAIN, repeatOf: refused.seq, body: applied() });
    b.post('apply', { suite: AGAIN, repeatOf: refused.seq, body: applied() });
    b.post('apply', { suite: AGAIN, repeatOf: broke.seq, changeSet: 'web', body: applied() });
    expect(judge(applyIdempotent, b).message).toBe(
      'no apply was sent again after the first had ended: the first apply of shop-db answered 409; the first apply of web got no answer (reset)',
    );
  });

  it('is not judged when the kit stopped before the repeat ended, and judged by the pairs it can judge', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { body: applied() });
    b.post('apply', { suite: AGAIN, repeatOf: first.seq, error: { kind: 'stopped', message: 'run stopped' } });
    expect(judge(applyIdempotent, b)).toEqual({
      outcome: 'not-exercised',
      message: 'no apply was sent again after the first had ended: the kit stopped before the repeated apply of shop-db ended',
    });
    // A second repeat that ends the same way is judged; the stopped one is not counted.
    b.post('apply', { suite: AGAIN, repeatOf: first.seq, body: applied() });
    expect(judge(applyIdempotent, b)).toEqual({
      outcome: 'held',
      message: '1 change set was applied again after the first apply ended: same outcome and outputs for every change',
    });
  });

  it('shows the repeat and the first final answer when the repeat was refused, with why', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { status: 202, body: { operationId: FIRST_ID } });
    const firstFinal = b.read(FIRST_ID, { body: applied('failed') });
    const repeat = b.post('apply', { suite: AGAIN, repeatOf: first.seq, status: 409, body: {} });
    const { notes, seqs } = brokenOf(judge(applyIdempotent, b));
    expect(notes).toEqual(['the apply of shop-db sent again answered 409, where the first ended failed']);
    expect(seqs).toEqual([[repeat.seq, firstFinal.seq]]);
  });

  it('leaves a repeat whose accepted work was lost to operation.not-lost: its end state is not known', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { status: 202, body: { operationId: FIRST_ID } });
    b.read(FIRST_ID, { body: applied('failed') });
    const repeat = b.post('apply', { suite: AGAIN, repeatOf: first.seq, status: 202, body: { operationId: REPEAT_ID } });
    b.read(REPEAT_ID, { status: 404, body: {} });
    b.pollEnded(REPEAT_ID, repeat.seq, 'lost', 100);
    expect(judge(applyIdempotent, b)).toMatchObject({
      outcome: 'not-exercised',
      message: expect.stringContaining('the repeated apply of shop-db answered 202, then its operation answered 404 before any final answer'),
    });
  });

  it('compares by the first final read of each operation', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { status: 202, body: { operationId: FIRST_ID } });
    b.read(FIRST_ID, { body: IN_PROGRESS });
    const firstFinal = b.read(FIRST_ID, { body: applied('succeeded', { url: 'a' }) });
    const repeat = b.post('apply', { suite: AGAIN, repeatOf: first.seq, status: 202, body: { operationId: REPEAT_ID } });
    const repeatFinal = b.read(REPEAT_ID, { body: applied('succeeded', { url: 'b' }) });
    const { notes, seqs } = brokenOf(judge(applyIdempotent, b));
    expect(seqs).toEqual([[repeat.seq, firstFinal.seq, repeatFinal.seq]]);
    expect(notes[0]).toContain(`(#${firstFinal.seq})`);
    expect(notes[0]).toContain(`(#${repeatFinal.seq})`);
    expect(notes[0]).toContain('outputs.url "a" vs "b"');
  });

  it('is judged whatever the plan-only flag says when it is off, and not judged when on', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { body: applied() });
    b.post('apply', { suite: AGAIN, repeatOf: first.seq, body: applied() });
    expect(judge(applyIdempotent, b, { planOnly: false }).outcome).toBe('held');
    expect(judge(applyIdempotent, b, { planOnly: true })).toEqual({ outcome: 'not-exercised', message: '--plan-only: apply was never called' });
  });
});

describe('apply.repeat-while-running: edges', () => {
  it('is not exercised with --plan-only, even with a repeat that would break it', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { at: 0, status: 202, body: { operationId: FIRST_ID } });
    b.post('apply', { at: 10, suite: WHILE, repeatOf: first.seq, status: 409, body: {} });
    b.read(FIRST_ID, { at: 20, body: applied() });
    expect(judge(applyRepeatWhileRunning, b).outcome).toBe('broken');
    expect(judge(applyRepeatWhileRunning, b, { planOnly: true })).toEqual({ outcome: 'not-exercised', message: '--plan-only: apply was never called' });
  });

  it('says a first apply that got no answer was never in progress', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { error: { kind: 'timeout', message: 'no answer' } });
    b.post('apply', { suite: WHILE, repeatOf: first.seq, body: applied() });
    // The provisioner accepted another call: it does answer 202, so the repeat's situation was missed, not inapplicable.
    b.post('plan', { status: 202, body: { operationId: FIRST_ID } });
    expect(judge(applyRepeatWhileRunning, b).message).toBe(
      'no apply was sent again while the first was in progress: the first apply of shop-db answered nothing, so it was never in progress',
    );
  });

  it('takes a repeat sent at the very moment the first final answer arrived as sent after it', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { at: 0, status: 202, body: { operationId: FIRST_ID } });
    b.read(FIRST_ID, { at: 10, took: 5, body: applied() });
    b.post('apply', { at: 15, suite: WHILE, repeatOf: first.seq, status: 409, body: {} });
    expect(judge(applyRepeatWhileRunning, b).message).toBe(
      'no apply was sent again while the first was in progress: the first apply of shop-db had already given its final answer when the repeat was sent',
    );
  });

  it('judges a repeat sent just before the first final answer arrived', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { at: 0, status: 202, body: { operationId: FIRST_ID } });
    b.read(FIRST_ID, { at: 10, took: 5, body: applied() });
    const repeat = b.post('apply', { at: 14, suite: WHILE, repeatOf: first.seq, status: 409, body: {} });
    const { message, notes, seqs } = brokenOf(judge(applyRepeatWhileRunning, b));
    expect(message).toBe('1 of 1 apply sent again while the first was in progress did not end in the same end state as the first');
    expect(notes).toEqual(['the apply of shop-db sent again answered 409, where the first ended succeeded']);
    expect(seqs).toEqual([[repeat.seq, 2]]);
  });

  it('cannot judge a repeat whose first apply never ended, and says why', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { at: 0, status: 202, body: { operationId: FIRST_ID } });
    b.post('apply', { at: 10, suite: WHILE, repeatOf: first.seq, body: applied() });
    b.read(FIRST_ID, { at: 20, body: IN_PROGRESS });
    b.pollEnded(FIRST_ID, first.seq, 'deadline', 30_000);
    expect(judge(applyRepeatWhileRunning, b).message).toBe(
      'no apply was sent again while the first was in progress: the first apply of shop-db answered 202, then gave no final answer within maxOperationDuration',
    );
  });

  it('counts every pair in its held and broken messages', () => {
    const b = new TranscriptBuilder();
    const one = b.post('apply', { at: 0, status: 202, body: { operationId: FIRST_ID } });
    const two = b.post('apply', { at: 0, changeSet: 'web', status: 202, body: { operationId: OTHER_ID } });
    b.post('apply', { at: 10, suite: WHILE, repeatOf: one.seq, body: applied() });
    b.post('apply', { at: 10, suite: WHILE, repeatOf: two.seq, changeSet: 'web', body: applied() });
    b.read(FIRST_ID, { at: 100, body: applied() });
    b.read(OTHER_ID, { at: 100, body: applied() });
    expect(judge(applyRepeatWhileRunning, b)).toEqual({
      outcome: 'held',
      message: '2 applies were sent again while the first was in progress: both ended the same way',
    });
    b.post('apply', { at: 10, suite: WHILE, repeatOf: one.seq, body: applied('failed') });
    expect(brokenOf(judge(applyRepeatWhileRunning, b)).message).toBe(
      '1 of 3 applies sent again while the first was in progress did not end in the same end state as the first',
    );
  });

  it('ignores repeats of the repeat-after-end suite and plans', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { at: 0, status: 202, body: { operationId: FIRST_ID } });
    b.post('apply', { at: 10, suite: AGAIN, repeatOf: first.seq, status: 409, body: {} });
    b.post('plan', { at: 10, suite: WHILE, repeatOf: first.seq, status: 409, body: {} });
    b.read(FIRST_ID, { at: 100, body: applied() });
    expect(judge(applyRepeatWhileRunning, b)).toEqual({ outcome: 'not-exercised', message: 'no apply was sent again while the first was in progress' });
  });
});

describe('plan.repeatable: edges', () => {
  const PLAN = '{"changes":[{"id":"shop-db","environment":"test"}]}';

  it('compares every later plan with the first that ended, and counts them', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { requestBody: PLAN, status: 503, body: {} });
    const first = b.post('plan', { requestBody: PLAN, body: shopDbFinal() });
    b.post('plan', { requestBody: PLAN, body: shopDbFinal() });
    const drift = b.post('plan', { requestBody: PLAN, body: shopDbFinal('failed') });
    const { message, notes, seqs } = brokenOf(judge(planRepeatable, b));
    expect(message).toBe('1 of 2 plans of a change set already planned gave another outcome for some change');
    expect(seqs).toEqual([[drift.seq, first.seq]]);
    expect(notes).toEqual([`shop-db: the first plan (#${first.seq}) and the one sent again (#${drift.seq}) ended differently: shop-db in test: outcome "succeeded" vs "failed"`]);
  });

  it('holds over several plans and says how many', () => {
    const b = new TranscriptBuilder();
    for (let i = 0; i < 3; i++) b.post('plan', { requestBody: PLAN, body: shopDbFinal() });
    expect(judge(planRepeatable, b)).toEqual({ outcome: 'held', message: '2 plans of a change set already planned gave the same outcome for every change' });
  });

  it('groups plans by their bytes only, leaves applies and bodiless calls out', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { requestBody: PLAN, body: shopDbFinal() });
    // The same bytes sent to apply are no plan.
    b.post('apply', { requestBody: PLAN, body: shopDbFinal('failed') });
    // Two calls recorded without a request body are not the same change set.
    const bare = [b.post('plan', { body: shopDbFinal() }), b.post('plan', { body: shopDbFinal('failed') })];
    for (const call of bare) delete call.request.body;
    expect(judge(planRepeatable, b)).toEqual({ outcome: 'not-exercised', message: 'no change set was planned twice with both plans ending in a final answer' });
  });

  it('says why a change set planned twice was not judged, once per change set', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { requestBody: PLAN, body: shopDbFinal() });
    b.post('plan', { requestBody: PLAN, status: 202, body: { operationId: FIRST_ID } });
    b.post('plan', { requestBody: '{"web":1}', changeSet: 'web', status: 500, body: {} });
    b.post('plan', { requestBody: '{"web":1}', changeSet: 'web', status: 500, body: {} });
    expect(judge(planRepeatable, b).message).toBe(
      'no change set was planned twice with both plans ending in a final answer: fewer than two plans of shop-db ended in a final answer; fewer than two plans of web ended in a final answer',
    );
  });

  it('compares outcomes only, never outputs, and compares a plan that ended by a read', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { requestBody: PLAN, body: applied('succeeded', { a: 1 }) });
    const again = b.post('plan', { requestBody: PLAN, status: 202, body: { operationId: FIRST_ID } });
    b.read(FIRST_ID, { body: applied('succeeded', { a: 2 }) });
    expect(judge(planRepeatable, b).outcome).toBe('held');
    const drift = b.read(FIRST_ID, { body: applied('failed') });
    // The first final read is the plan's end: a later read does not change it.
    expect(judge(planRepeatable, b).outcome).toBe('held');
    expect(drift.seq).toBeGreaterThan(again.seq);
  });

  it('is judged with --plan-only too', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { requestBody: PLAN, body: shopDbFinal() });
    b.post('plan', { requestBody: PLAN, body: shopDbFinal() });
    expect(judge(planRepeatable, b, { planOnly: true }).outcome).toBe('held');
  });
});
