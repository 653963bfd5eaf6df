import { describe, expect, it } from 'vitest';
import { applyIdempotent, applyRepeatWhileRunning, planRepeatable, RULES } from '../../src/rules/catalog/repeats.js';
import type { Judgement, Rule } from '../../src/rules/types.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { IN_PROGRESS, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['apply.idempotent', 'MUST'],
  ['apply.repeat-while-running', 'SHOULD'],
  ['plan.repeatable', 'SHOULD'],
]);

const FIRST_ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const REPEAT_ID = '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d';

function judge(rule: Rule, b: TranscriptBuilder, overrides = {}): Judgement {
  return rule.judge!(b.transcript, context(overrides));
}

function brokenNotes(judgement: Judgement): { notes: string[]; seqs: number[][] } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { notes: judgement.evidence.map((e) => e.note), seqs: judgement.evidence.map((e) => e.exchanges) };
}

function withOutputs(outputs: Record<string, unknown> | undefined, outcome: 'succeeded' | 'failed' = 'succeeded'): Record<string, unknown> {
  return {
    outcome,
    description: 'Applied.',
    results: [{ id: 'shop-db', environment: 'test', outcome, description: 'Created shop-db.', ...(outputs ? { outputs } : {}) }],
  };
}

describe('apply.idempotent', () => {
  it('holds when the repeat gives the same outcome and outputs, whatever their key order', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { status: 202, body: { operationId: FIRST_ID } });
    b.read(FIRST_ID, { body: withOutputs({ url: 'db://x', port: 5432 }) });
    b.post('apply', { suite: SITUATION_SUITES.repeatApply, repeatOf: first.seq, body: withOutputs({ port: 5432, url: 'db://x' }) });
    expect(judge(applyIdempotent, b)).toEqual({
      outcome: 'held',
      message: '1 change set was applied again after the first apply ended: same outcome and outputs for every change',
    });
  });

  it('takes no outputs and empty outputs for the same', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { body: withOutputs({}) });
    b.post('apply', { suite: SITUATION_SUITES.repeatApply, repeatOf: first.seq, body: withOutputs(undefined) });
    expect(judge(applyIdempotent, b).outcome).toBe('held');
  });

  it('is broken by outputs that change, with both final answers and the differing field', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { status: 202, body: { operationId: FIRST_ID } });
    const firstFinal = b.read(FIRST_ID, { body: withOutputs({ resourceId: 'db-1' }) });
    const repeat = b.post('apply', { suite: SITUATION_SUITES.repeatApply, repeatOf: first.seq, status: 202, body: { operationId: REPEAT_ID } });
    b.read(REPEAT_ID, { body: IN_PROGRESS });
    const repeatFinal = b.read(REPEAT_ID, { body: withOutputs({ resourceId: 'db-2' }) });
    const { notes, seqs } = brokenNotes(judge(applyIdempotent, b));
    expect(seqs).toEqual([[repeat.seq, firstFinal.seq, repeatFinal.seq]]);
    expect(notes[0]).toBe(
      `shop-db: the first apply (#${firstFinal.seq}) and the one sent again (#${repeatFinal.seq}) ended differently: shop-db in test: outputs.resourceId "db-1" vs "db-2"`,
    );
  });

  it('never puts a secret output in a note', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { body: withOutputs({ password: 'hunter2' }) });
    b.post('apply', { suite: SITUATION_SUITES.repeatApply, repeatOf: first.seq, body: withOutputs({ password: 'swordfish' }) });
    const { notes } = brokenNotes(judge(applyIdempotent, b));
    expect(notes[0]).toContain('outputs.password a secret value vs a different one');
    expect(notes[0]).not.toMatch(/hunter2|swordfish/);
  });

  it('is broken by a 409 to the repeat, and by another outcome', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { body: withOutputs({ a: 1 }) });
    b.post('apply', { suite: SITUATION_SUITES.repeatApply, repeatOf: first.seq, status: 409, body: { message: 'already exists' } });
    expect(brokenNotes(judge(applyIdempotent, b)).notes[0]).toBe('the apply of shop-db sent again answered 409, where the first ended succeeded');

    const c = new TranscriptBuilder();
    const second = c.post('apply', { body: withOutputs({ a: 1 }) });
    c.post('apply', { suite: SITUATION_SUITES.repeatApply, repeatOf: second.seq, body: withOutputs({ a: 1 }, 'failed') });
    expect(brokenNotes(judge(applyIdempotent, c)).notes[0]).toContain('shop-db in test: outcome "succeeded" vs "failed"');
  });

  it('is not exercised without a repeat, when the first apply never ended, or with --plan-only', () => {
    const none = new TranscriptBuilder();
    none.post('apply', { body: shopDbFinal() });
    expect(judge(applyIdempotent, none)).toEqual({ outcome: 'not-exercised', message: 'no apply was sent again after the first had ended' });

    const refused = new TranscriptBuilder();
    const first = refused.post('apply', { status: 409, body: {} });
    refused.post('apply', { suite: SITUATION_SUITES.repeatApply, repeatOf: first.seq, status: 409, body: {} });
    expect(judge(applyIdempotent, refused)).toEqual({
      outcome: 'not-exercised',
      message: 'no apply was sent again after the first had ended: the first apply of shop-db answered 409',
    });

    expect(judge(applyIdempotent, new TranscriptBuilder(), { planOnly: true }).message).toBe('--plan-only: apply was never called');
  });
});

describe('apply.repeat-while-running', () => {
  function running(b: TranscriptBuilder, repeatBody: unknown, repeatStatus = 200): void {
    const first = b.post('apply', { at: 0, status: 202, body: { operationId: FIRST_ID } });
    b.post('apply', { at: 10, suite: SITUATION_SUITES.repeatWhileRunning, repeatOf: first.seq, status: repeatStatus, body: repeatBody });
    b.read(FIRST_ID, { at: 20, body: IN_PROGRESS });
    b.read(FIRST_ID, { at: 1000, body: withOutputs({ id: 1 }) });
  }

  it('holds when both end the same way', () => {
    const b = new TranscriptBuilder();
    running(b, withOutputs({ id: 1 }));
    expect(judge(applyRepeatWhileRunning, b)).toEqual({
      outcome: 'held',
      message: '1 apply was sent again while the first was in progress: both ended the same way',
    });
  });

  it('is broken by an "already running" failed final answer to the repeat', () => {
    const b = new TranscriptBuilder();
    running(b, { outcome: 'failed', description: 'already running', results: [{ id: 'shop-db', environment: 'test', outcome: 'failed', description: 'already running' }] });
    const { notes, seqs } = brokenNotes(judge(applyRepeatWhileRunning, b));
    expect(notes[0]).toContain('shop-db in test: outcome "succeeded" vs "failed", outputs.id 1 vs missing');
    expect(seqs[0]).toEqual([2, 4]);
  });

  it('is not exercised when the first apply answered 200, or had ended before the repeat went out', () => {
    const sync = new TranscriptBuilder();
    const first = sync.post('apply', { body: shopDbFinal() });
    sync.post('apply', { suite: SITUATION_SUITES.repeatWhileRunning, repeatOf: first.seq, body: shopDbFinal() });
    // Every call answered at once: there never was an apply in progress to send again.
    expect(judge(applyRepeatWhileRunning, sync)).toEqual({
      outcome: 'not-applicable',
      message: 'all 2 plan and apply calls were answered 200 at once: no apply was ever in progress to send again',
    });
    // Another call accepted: the provisioner does answer 202, so this apply answered at once is a missed situation.
    sync.post('plan', { status: 202, body: { operationId: FIRST_ID } });
    expect(judge(applyRepeatWhileRunning, sync)).toEqual({
      outcome: 'not-exercised',
      message: 'no apply was sent again while the first was in progress: the first apply of shop-db answered 200, so it was never in progress',
    });

    const late = new TranscriptBuilder();
    const accepted = late.post('apply', { at: 0, status: 202, body: { operationId: FIRST_ID } });
    late.read(FIRST_ID, { at: 10, body: shopDbFinal() });
    late.post('apply', { at: 50, suite: SITUATION_SUITES.repeatWhileRunning, repeatOf: accepted.seq, body: shopDbFinal() });
    expect(judge(applyRepeatWhileRunning, late).message).toContain('had already given its final answer when the repeat was sent');

    expect(judge(applyRepeatWhileRunning, new TranscriptBuilder()).outcome).toBe('not-exercised');
  });
});

describe('plan.repeatable', () => {
  const PLAN = '{"changes":[{"id":"shop-db","environment":"test"}]}';

  it('holds when every plan of the same body gives the same outcome per change', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { requestBody: PLAN, body: shopDbFinal() });
    b.post('plan', { requestBody: PLAN, status: 202, body: { operationId: FIRST_ID } });
    b.read(FIRST_ID, { body: shopDbFinal() });
    expect(judge(planRepeatable, b)).toEqual({ outcome: 'held', message: '1 plan of a change set already planned gave the same outcome for every change' });
  });

  it('is broken by a plan that drifts, and ignores outputs', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { requestBody: PLAN, body: withOutputs({ a: 1 }) });
    b.post('plan', { requestBody: PLAN, body: withOutputs({ a: 2 }) });
    b.post('plan', { requestBody: PLAN, body: withOutputs({ a: 1 }, 'failed') });
    const { notes, seqs } = brokenNotes(judge(planRepeatable, b));
    expect(seqs).toEqual([[3, 1]]);
    expect(notes[0]).toBe('shop-db: the first plan (#1) and the one sent again (#3) ended differently: shop-db in test: outcome "succeeded" vs "failed"');
  });

  it('is not exercised when no change set was planned twice with two final answers', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { requestBody: PLAN, body: shopDbFinal() });
    b.post('plan', { requestBody: '{"other":1}', body: shopDbFinal() });
    expect(judge(planRepeatable, b)).toEqual({ outcome: 'not-exercised', message: 'no change set was planned twice with both plans ending in a final answer' });
    b.post('plan', { requestBody: PLAN, status: 503, body: {} });
    expect(judge(planRepeatable, b).message).toContain('fewer than two plans of shop-db ended in a final answer');
  });
});

describe('a change set the traffic itself sent again (observed, no repeat suite of the kit)', () => {
  /** A first apply ended at 25 ms, and the same apply sent again by the control plane at `at` ms, ending `again`. */
  function sentAgain(at: number, again: Record<string, unknown>): TranscriptBuilder {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { at: 0, status: 202, body: { operationId: FIRST_ID }, suite: 'observed' });
    b.read(FIRST_ID, { at: 20, body: withOutputs({ url: 'db://x' }), suite: 'observed' });
    b.post('apply', { at, status: 202, body: { operationId: REPEAT_ID }, suite: 'observed', repeatOf: first.seq });
    b.read(REPEAT_ID, { at: at + 30, body: again, suite: 'observed' });
    return b;
  }

  it('is judged by apply.idempotent when sent after the first final answer arrived, held or broken', () => {
    expect(judge(applyIdempotent, sentAgain(42, withOutputs({ url: 'db://x' }))).outcome).toBe('held');
    expect(judge(applyIdempotent, sentAgain(42, withOutputs({ url: 'db://y' }))).outcome).toBe('broken');
    expect(judge(applyRepeatWhileRunning, sentAgain(42, withOutputs({ url: 'db://y' }))).outcome).toBe('not-exercised');
  });

  it('is judged by apply.repeat-while-running when sent before the first final answer arrived, held or broken', () => {
    expect(judge(applyRepeatWhileRunning, sentAgain(10, withOutputs({ url: 'db://x' }))).outcome).toBe('held');
    expect(judge(applyRepeatWhileRunning, sentAgain(10, withOutputs({ url: 'db://y' }))).outcome).toBe('broken');
    expect(judge(applyIdempotent, sentAgain(10, withOutputs({ url: 'db://y' }))).outcome).toBe('not-exercised');
  });
});
