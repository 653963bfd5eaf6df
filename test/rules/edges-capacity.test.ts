import { describe, expect, it } from 'vitest';
import { capacityBurst, mostInFlight } from '../../src/rules/catalog/capacity.js';
import type { Judgement } from '../../src/rules/types.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { IN_PROGRESS, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

const BURST = SITUATION_SUITES.burst;
const IDS = ['6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b', '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d', '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d'] as const;
const AIDE = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
const LOAD_ASIDE = 'failed the way the provisioner fails without load too, which answer.status and the operation rules judge';

function judge(b: TranscriptBuilder): Judgement {
  return capacityBurst.judge(b.transcript, context());
}

function brokenOf(judgement: Judgement): { message: string; evidence: Array<{ note: string; exchanges: number[] }> } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { message: judgement.message, evidence: judgement.evidence };
}

describe('capacity.burst: what it counts', () => {
  it('counts 200s and 202s, and only accepted operations whose end the kit knows', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 0, took: 50, body: shopDbFinal() });
    const ended = b.post('apply', { suite: BURST, at: 10, took: 50, status: 202, body: { operationId: IDS[0] } });
    // Followed until the kit stopped: neither ended nor failed.
    b.post('apply', { suite: BURST, at: 20, took: 50, status: 202, body: { operationId: IDS[1] } });
    // A 202 without an operationId to follow: answered, but no operation.
    b.post('apply', { suite: BURST, at: 100, took: 5, status: 202, body: {} });
    b.read(IDS[0], { at: 200, body: shopDbFinal() });
    b.read(IDS[1], { at: 200, body: IN_PROGRESS });
    expect(ended.seq).toBe(2);
    expect(judge(b)).toEqual({
      outcome: 'held',
      message: '4 calls at once (1 plan, 3 applies, up to 3 in flight together): 4 answered 200 or 202, 1 of 1 accepted operation reached a final answer',
    });
  });

  it('says when no call was accepted with 202', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 0, took: 10, body: shopDbFinal() });
    b.post('plan', { suite: BURST, at: 10, took: 10, body: shopDbFinal() });
    expect(judge(b)).toEqual({
      outcome: 'held',
      message: '2 calls at once (2 plans, 0 applies, up to 1 in flight together): 2 answered 200 or 202, none was accepted with 202',
    });
  });

  it('leaves out calls the kit itself stopped, but counts them in the burst', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 0, error: { kind: 'stopped', message: 'run stopped' } });
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: 'no call of the burst was answered as it would be without load' });
    b.post('plan', { suite: BURST, at: 0, body: shopDbFinal() });
    expect(judge(b)).toEqual({
      outcome: 'held',
      message: '2 calls at once (2 plans, 0 applies, up to 2 in flight together): 1 answered 200 or 202, none was accepted with 202',
    });
  });

  it('counts every accepted operation that ended, with the plural', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 0, status: 202, body: { operationId: IDS[0] } });
    b.post('plan', { suite: BURST, at: 0, status: 202, body: { operationId: IDS[1] } });
    b.read(IDS[0], { at: 100, body: shopDbFinal() });
    b.read(IDS[1], { at: 100, body: shopDbFinal() });
    expect(judge(b)).toMatchObject({ outcome: 'held', message: expect.stringContaining(': 2 answered 200 or 202, 2 of 2 accepted operations reached a final answer') });
  });
});

describe('capacity.burst: refusals', () => {
  it('blames a refusal of a kind of call answered outside the burst (200 or 202), and leaves the other kind to other rules', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: AIDE } });
    b.read(AIDE, { at: 100, body: shopDbFinal() });
    const refusedApply = b.post('apply', { suite: BURST, at: 1, status: 409, body: {} });
    b.post('plan', { suite: BURST, at: 1, status: 409, body: {} });
    const { message, evidence } = brokenOf(judge(b));
    expect(evidence).toEqual([{ note: 'apply shop-db answered 409 during a burst of 2 calls', exchanges: [refusedApply.seq] }]);
    expect(message).toBe(`1 of 2 calls in a burst (1 plan, 1 apply, up to 2 in flight at once) did not hold; 1 call ${LOAD_ASIDE}`);
  });

  it('blames a refusal when a call of the same kind was answered 200 outside the burst', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, body: shopDbFinal() });
    b.post('plan', { suite: BURST, at: 1, status: 400, body: {} });
    expect(brokenOf(judge(b)).message).toBe('1 of 1 call in a burst (1 plan, 0 applies, up to 1 in flight at once) did not hold');
  });

  it('does not take a refusal outside the burst for an answer', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, status: 409, body: {} });
    b.post('plan', { suite: BURST, at: 1, status: 409, body: {} });
    b.post('plan', { suite: BURST, at: 1, status: 409, body: {} });
    expect(judge(b)).toEqual({
      outcome: 'not-exercised',
      message: `no call of the burst was answered as it would be without load; 2 calls ${LOAD_ASIDE}`,
    });
  });

  it('always blames an overload answer, and names a call without a change set name by its kind', () => {
    const b = new TranscriptBuilder();
    const reset = b.post('apply', { suite: BURST, at: 0, error: { kind: 'reset', message: 'socket hang up' } });
    const full = b.post('plan', { suite: BURST, at: 0, status: 429, body: {} });
    delete full.changeSet;
    expect(brokenOf(judge(b)).evidence).toEqual([
      { note: 'apply shop-db got no answer (reset) during a burst of 2 calls', exchanges: [reset.seq] },
      { note: 'plan  answered 429 during a burst of 2 calls', exchanges: [full.seq] },
    ]);
  });
});

describe('capacity.burst: operations that never end', () => {
  function endedOutside(b: TranscriptBuilder): void {
    b.post('plan', { at: 0, status: 202, body: { operationId: AIDE } });
    b.read(AIDE, { at: 100, body: shopDbFinal() });
  }

  it('blames work past the deadline while work outside the burst ends, with the 202 as evidence', () => {
    const b = new TranscriptBuilder();
    endedOutside(b);
    const accepted = b.post('apply', { suite: BURST, at: 1, status: 202, body: { operationId: IDS[0] } });
    b.read(IDS[0], { at: 50, body: IN_PROGRESS });
    b.pollEnded(IDS[0], accepted.seq, 'deadline', 30_000);
    const { message, evidence } = brokenOf(judge(b));
    expect(evidence).toEqual([{ note: 'apply shop-db accepted during the burst then gave no final answer within maxOperationDuration', exchanges: [accepted.seq] }]);
    expect(message).toBe('1 of 1 call in a burst (0 plans, 1 apply, up to 1 in flight at once) did not hold');
  });

  it('blames it when only operations of the burst end: no work ran without load to show it fails that way too', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 0, status: 202, body: { operationId: IDS[1] } });
    b.read(IDS[1], { at: 100, body: shopDbFinal() });
    const accepted = b.post('apply', { suite: BURST, at: 1, status: 202, body: { operationId: IDS[0] } });
    b.pollEnded(IDS[0], accepted.seq, 'deadline', 30_000);
    expect(judge(b)).toEqual({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 calls in a burst (1 plan, 1 apply, up to 2 in flight at once) did not hold',
      evidence: [{ note: 'apply shop-db accepted during the burst then gave no final answer within maxOperationDuration', exchanges: [accepted.seq] }],
    });
  });

  it('does not blame it when work that ran without load fails to end the same way', () => {
    const b = new TranscriptBuilder();
    endedOutside(b);
    const outside = b.post('apply', { at: 0, status: 202, body: { operationId: IDS[2] } });
    b.pollEnded(IDS[2], outside.seq, 'deadline', 30_000);
    const accepted = b.post('apply', { suite: BURST, at: 1000, status: 202, body: { operationId: IDS[0] } });
    b.pollEnded(IDS[0], accepted.seq, 'deadline', 31_000);
    expect(judge(b)).toMatchObject({ outcome: 'held', message: expect.stringContaining(`0 of 1 accepted operation reached a final answer; 1 call ${LOAD_ASIDE}`) });
  });

  it('takes no work in flight with the burst as evidence of failing without load, from its 202 to its last read', () => {
    const b = new TranscriptBuilder();
    endedOutside(b);
    // Accepted before the burst, but still read while the burst was in flight: it met the load too.
    const outside = b.post('apply', { at: 0, status: 202, body: { operationId: IDS[2] } });
    b.read(IDS[2], { at: 1500, body: IN_PROGRESS });
    b.pollEnded(IDS[2], outside.seq, 'deadline', 30_000);
    const accepted = b.post('apply', { suite: BURST, at: 1000, took: 1000, status: 202, body: { operationId: IDS[0] } });
    b.pollEnded(IDS[0], accepted.seq, 'deadline', 31_000);
    expect(brokenOf(judge(b)).evidence).toEqual([
      { note: 'apply shop-db accepted during the burst then gave no final answer within maxOperationDuration', exchanges: [accepted.seq] },
    ]);
  });

  it('blames it when work sent after the burst ended: the burst work failed alone', () => {
    const b = new TranscriptBuilder();
    const accepted = b.post('apply', { suite: BURST, at: 0, took: 10, status: 202, body: { operationId: IDS[0] } });
    b.pollEnded(IDS[0], accepted.seq, 'deadline', 30_000);
    b.post('plan', { at: 100, status: 202, body: { operationId: AIDE } });
    b.read(AIDE, { at: 200, body: shopDbFinal() });
    expect(brokenOf(judge(b)).evidence.map((e) => e.note)).toEqual(['apply shop-db accepted during the burst then gave no final answer within maxOperationDuration']);
  });

  it('blames it when work outside the burst fails another way', () => {
    const b = new TranscriptBuilder();
    endedOutside(b);
    const outside = b.post('apply', { at: 0, status: 202, body: { operationId: IDS[2] } });
    b.pollEnded(IDS[2], outside.seq, 'lost', 100);
    const accepted = b.post('apply', { suite: BURST, at: 1, status: 202, body: { operationId: IDS[0] } });
    b.pollEnded(IDS[0], accepted.seq, 'deadline', 30_000);
    expect(brokenOf(judge(b)).evidence.map((e) => e.note)).toEqual(['apply shop-db accepted during the burst then gave no final answer within maxOperationDuration']);
  });

  it('says nothing of work the kit stopped following', () => {
    const b = new TranscriptBuilder();
    endedOutside(b);
    b.post('apply', { suite: BURST, at: 1, status: 202, body: { operationId: IDS[0] } });
    expect(judge(b)).toEqual({
      outcome: 'held',
      message: '1 call at once (0 plans, 1 apply, up to 1 in flight together): 1 answered 200 or 202, none was accepted with 202',
    });
  });
});

describe('capacity.burst: everyday calls during the burst', () => {
  it('blames only plans and applies of other suites in flight while the burst was, answered as when overloaded', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 100, took: 100, body: shopDbFinal() });
    const during = b.post('plan', { suite: 'scenario/plan-only', at: 150, took: 100, error: { kind: 'reset', message: 'socket hang up' } });
    // Before the burst, after it, a read during it, and an everyday 409 during it: none is the burst's.
    b.post('plan', { suite: 'scenario/plan-only', at: 0, took: 10, status: 503, body: {} });
    b.post('plan', { suite: 'scenario/plan-only', at: 300, took: 10, status: 503, body: {} });
    b.read(IDS[0], { suite: 'scenario/plan-only', at: 150, status: 503, body: {} });
    b.post('apply', { suite: 'scenario/plan-only', at: 150, status: 409, body: {} });
    const { message, evidence } = brokenOf(judge(b));
    expect(evidence).toEqual([{ note: 'plan shop-db of scenario/plan-only got no answer (reset) while a burst of 1 call was in flight', exchanges: [during.seq] }]);
    // The burst's own call held: the message counts the other suite's call apart.
    expect(message).toBe('1 call of other suites got no answer (reset) during a burst of 1 call (1 plan, 0 applies, up to 1 in flight at once)');
  });

  it('says what the calls of other suites got, when they all got the same', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 100, took: 100, status: 429, body: {} });
    b.post('plan', { suite: BURST, at: 100, took: 100, body: shopDbFinal() });
    b.post('plan', { suite: 'scenario/plan-only', at: 150, took: 10, status: 500, body: {} });
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 160, took: 10, status: 500, body: {} });
    expect(brokenOf(judge(b)).message).toBe('1 of 2 calls in a burst (2 plans, 0 applies, up to 2 in flight at once) did not hold, and 2 calls of other suites were answered 500 meanwhile');
  });

  it('says what one call of other suites was answered, in the singular', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 100, took: 100, body: shopDbFinal() });
    b.post('plan', { suite: 'scenario/plan-only', at: 150, took: 10, status: 503, body: {} });
    expect(brokenOf(judge(b)).message).toBe('1 call of other suites was answered 503 during a burst of 1 call (1 plan, 0 applies, up to 1 in flight at once)');
  });

  it('puts what most calls of other suites got first, whatever came first', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 100, took: 100, body: shopDbFinal() });
    b.post('plan', { suite: 'scenario/plan-only', at: 150, took: 10, error: { kind: 'reset', message: 'socket hang up' } });
    b.post('plan', { suite: 'scenario/plan-only', at: 160, took: 10, status: 503, body: {} });
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 170, took: 10, status: 503, body: {} });
    expect(brokenOf(judge(b)).message).toBe(
      '3 calls of other suites failed: 2 answered 503, 1 got no answer (reset) during a burst of 1 call (1 plan, 0 applies, up to 1 in flight at once)',
    );
  });

  it('counts the burst calls that did not hold apart from the calls of other suites it overloaded', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 100, took: 100, status: 429, body: {} });
    b.post('plan', { suite: BURST, at: 100, took: 100, body: shopDbFinal() });
    b.post('plan', { suite: 'scenario/plan-only', at: 150, took: 10, status: 503, body: {} });
    b.post('apply', { suite: 'scenario/plan-and-apply', at: 160, took: 10, status: 429, body: {} });
    const { message, evidence } = brokenOf(judge(b));
    expect(evidence).toHaveLength(3);
    expect(message).toBe('1 of 2 calls in a burst (2 plans, 0 applies, up to 2 in flight at once) did not hold, and 2 calls of other suites failed: 1 answered 503, 1 answered 429 meanwhile');
  });
});

describe('capacity.burst: names and kinds', () => {
  it('does not take a call of the burst answered 200 for the same kind answered outside it', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 0, body: shopDbFinal() });
    b.post('plan', { suite: BURST, at: 0, status: 409, body: {} });
    expect(judge(b)).toEqual({
      outcome: 'held',
      message: `2 calls at once (2 plans, 0 applies, up to 2 in flight together): 1 answered 200 or 202, none was accepted with 202; 1 call ${LOAD_ASIDE}`,
    });
  });

  it('names by its kind alone a call without a change set name, in the burst and outside it', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, status: 202, body: { operationId: AIDE } });
    b.read(AIDE, { at: 100, body: shopDbFinal() });
    const accepted = b.post('apply', { suite: BURST, at: 1, took: 50, status: 202, body: { operationId: IDS[0] } });
    delete accepted.changeSet;
    b.pollEnded(IDS[0], accepted.seq, 'deadline', 30_000);
    const everyday = b.post('plan', { suite: 'scenario/plan-only', at: 20, status: 503, body: {} });
    delete everyday.changeSet;
    expect(brokenOf(judge(b)).evidence.map((e) => e.note)).toEqual([
      'apply  accepted during the burst then gave no final answer within maxOperationDuration',
      'plan  of scenario/plan-only answered 503 while a burst of 1 call was in flight',
    ]);
  });
});

describe('mostInFlight: edges', () => {
  it('ends a call before the next starts at the same moment, whatever order the calls come in', () => {
    const b = new TranscriptBuilder();
    const later = b.post('plan', { at: 10, took: 10 });
    const earlier = b.post('plan', { at: 0, took: 10 });
    expect(mostInFlight([later, earlier])).toBe(1);
  });

  it('takes the end of a call that got no answer as its end', () => {
    const b = new TranscriptBuilder();
    const calls = [b.post('plan', { at: 0, took: 20, error: { kind: 'timeout', message: 'no answer' } }), b.post('plan', { at: 10, took: 20 })];
    expect(mostInFlight(calls)).toBe(2);
  });

  it('counts the most at one moment, not the most ever started', () => {
    const b = new TranscriptBuilder();
    const calls = [b.post('plan', { at: 0, took: 5 }), b.post('plan', { at: 10, took: 5 }), b.post('plan', { at: 20, took: 5 })];
    expect(mostInFlight(calls)).toBe(1);
    // Sent out of order: the order of the list does not matter.
    expect(mostInFlight([calls[2]!, calls[0]!, calls[1]!])).toBe(1);
    const nested = [b.post('plan', { at: 100, took: 100 }), b.post('plan', { at: 110, took: 10 }), b.post('plan', { at: 130, took: 10 })];
    expect(mostInFlight([nested[2]!, nested[1]!, nested[0]!])).toBe(2);
  });
});
