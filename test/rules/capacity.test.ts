import { describe, expect, it } from 'vitest';
import { capacityBurst, mostInFlight, RULES } from '../../src/rules/catalog/capacity.js';
import type { Judgement } from '../../src/rules/types.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { IN_PROGRESS, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['capacity.burst', 'MUST'],
]);

const BURST = SITUATION_SUITES.burst;
const IDS = ['6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b', '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d', '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d'];

function judge(b: TranscriptBuilder): Judgement {
  return capacityBurst.judge!(b.transcript, context());
}

function brokenNotes(judgement: Judgement): string[] {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return judgement.evidence.map((e) => e.note);
}

/** An everyday plan outside the burst that answers 202 and ends. */
function everydayPlan(b: TranscriptBuilder, id: string): void {
  b.post('plan', { at: 0, status: 202, body: { operationId: id } });
  b.read(id, { at: 500, body: shopDbFinal() });
}

describe('capacity.burst', () => {
  it('holds when every call of the burst answers 200 or 202 and every accepted operation ends', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 0, took: 100, body: shopDbFinal() });
    b.post('plan', { suite: BURST, at: 1, took: 100, status: 202, body: { operationId: IDS[0] } });
    b.post('apply', { suite: BURST, at: 2, took: 100, status: 202, body: { operationId: IDS[1] } });
    b.read(IDS[0]!, { at: 200, body: IN_PROGRESS });
    b.read(IDS[0]!, { at: 1200, body: shopDbFinal() });
    b.read(IDS[1]!, { at: 1200, body: shopDbFinal() });
    expect(judge(b)).toEqual({
      outcome: 'held',
      message: '3 calls at once (2 plans, 1 apply, up to 3 in flight together): 3 answered 200 or 202, 2 of 2 accepted operations reached a final answer',
    });
  });

  it('is broken by a 429, a 503 and a reset under load, when the same kind of call answers outside the burst', () => {
    const b = new TranscriptBuilder();
    everydayPlan(b, IDS[2]!);
    b.post('plan', { suite: BURST, at: 1, status: 429, body: { message: 'too many requests' } });
    b.post('plan', { suite: BURST, at: 1, status: 503, body: { message: 'busy' } });
    b.post('plan', { suite: BURST, at: 1, error: { kind: 'reset', message: 'socket hang up' } });
    b.post('plan', { suite: BURST, at: 1, body: shopDbFinal() });
    expect(brokenNotes(judge(b))).toEqual([
      'plan shop-db answered 429 during a burst of 4 calls',
      'plan shop-db answered 503 during a burst of 4 calls',
      'plan shop-db got no answer (reset) during a burst of 4 calls',
    ]);
  });

  it('is broken by an accepted operation that never ends under load while others end', () => {
    const b = new TranscriptBuilder();
    everydayPlan(b, IDS[2]!);
    const accepted = b.post('plan', { suite: BURST, at: 1, status: 202, body: { operationId: IDS[0] } });
    b.read(IDS[0]!, { at: 100, status: 404, body: { message: 'unknown' } });
    b.pollEnded(IDS[0]!, accepted.seq, 'lost', 101);
    expect(brokenNotes(judge(b))).toEqual(['plan shop-db accepted during the burst then its operation answered 404 before any final answer']);
  });

  it('counts a 503 to an everyday call in flight during the burst', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: BURST, at: 0, took: 100, body: shopDbFinal() });
    const everyday = b.post('apply', { suite: 'scenario/plan-and-apply', at: 50, status: 503, body: {} });
    b.post('apply', { suite: 'scenario/plan-and-apply', at: 500, status: 503, body: {} });
    const judgement = judge(b);
    if (judgement.outcome !== 'broken') throw new Error(judgement.message);
    expect(judgement.evidence).toEqual([
      { note: 'apply shop-db of scenario/plan-and-apply answered 503 while a burst of 1 call was in flight', exchanges: [everyday.seq] },
    ]);
  });

  it('leaves to operation.not-lost burst operations lost the way operations outside the burst are lost', () => {
    const b = new TranscriptBuilder();
    everydayPlan(b, IDS[2]!);
    const lostOutside = b.post('apply', { at: 0, status: 202, body: { operationId: IDS[1] } });
    b.read(IDS[1]!, { at: 10, status: 404, body: {} });
    b.pollEnded(IDS[1]!, lostOutside.seq, 'lost', 11);
    // The burst comes after that work has failed: it failed without load.
    const accepted = b.post('plan', { suite: BURST, at: 1000, status: 202, body: { operationId: IDS[0] } });
    b.read(IDS[0]!, { at: 1100, status: 404, body: {} });
    b.pollEnded(IDS[0]!, accepted.seq, 'lost', 1101);
    expect(judge(b)).toMatchObject({ outcome: 'held', message: expect.stringContaining('1 call failed the way the provisioner fails without load too') });
  });

  it('is broken by a queue that never drains: no burst operation ends, while the only work that ended ran with the burst', () => {
    const b = new TranscriptBuilder();
    // Four workers take the first calls and end them; everything queued behind them is never picked up.
    for (const [i, id] of ['1b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c01', '1b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c02'].entries()) {
      b.post('plan', { at: i, status: 202, body: { operationId: id } });
      b.read(id, { at: 2000, body: shopDbFinal() });
    }
    const burst = IDS.map((id, i) => {
      const accepted = b.post('plan', { suite: BURST, at: 2 + i, took: 10, status: 202, body: { operationId: id } });
      b.read(id, { suite: BURST, at: 1000, body: IN_PROGRESS });
      b.pollEnded(id, accepted.seq, 'deadline', 20_000);
      return accepted;
    });
    const judgement = judge(b);
    expect(brokenNotes(judgement)).toEqual(IDS.map(() => 'plan shop-db accepted during the burst then gave no final answer within maxOperationDuration'));
    expect(judgement).toMatchObject({
      message: '3 of 3 calls in a burst (3 plans, 0 applies, up to 3 in flight at once) did not hold',
      evidence: burst.map((accepted) => ({ exchanges: [accepted.seq] })),
    });
  });

  /** Work sent after the burst window (which ends at 1005): each id answered 202, read once, then ended or past the deadline. */
  function after(b: TranscriptBuilder, ids: readonly string[], ends: (index: number) => boolean): void {
    ids.forEach((id, i) => {
      const calm = b.post('apply', { at: 30_000 + i, status: 202, body: { operationId: id } });
      if (ends(i)) b.read(id, { at: 31_000, body: shopDbFinal() });
      else b.pollEnded(id, calm.seq, 'deadline', 50_000);
    });
  }
  const LATER = ['2b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c01', '2b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c02'];

  it('is broken by a queue the burst jammed: work ended until the burst, and none sent after it ends', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, status: 202, body: { operationId: '1b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c01' } });
    b.read('1b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c01', { at: 500, body: shopDbFinal() });
    IDS.forEach((id, i) => {
      const accepted = b.post('plan', { suite: BURST, at: 1 + i, took: 10, status: 202, body: { operationId: id } });
      b.read(id, { suite: BURST, at: 1000, body: IN_PROGRESS });
      b.pollEnded(id, accepted.seq, 'deadline', 20_000);
    });
    // Sent after the burst, never ended the same way: the queue still holds the burst's work.
    after(b, LATER, () => false);
    expect(judge(b)).toMatchObject({ outcome: 'broken', count: 3, message: '3 of 3 calls in a burst (3 plans, 0 applies, up to 3 in flight at once) did not hold' });
  });

  it('takes work after the burst as evidence when some of it ends: the provisioner fails now and then, load or not', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, status: 202, body: { operationId: '1b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c01' } });
    b.read('1b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c01', { at: 500, body: shopDbFinal() });
    const accepted = b.post('plan', { suite: BURST, at: 1, took: 10, status: 202, body: { operationId: IDS[0] } });
    b.read(IDS[0]!, { suite: BURST, at: 1000, body: IN_PROGRESS });
    b.pollEnded(IDS[0]!, accepted.seq, 'deadline', 20_000);
    after(b, LATER, (i) => i === 0);
    expect(judge(b)).toMatchObject({ outcome: 'held', message: expect.stringContaining('0 of 1 accepted operation reached a final answer; 1 call failed the way the provisioner fails without load too') });
  });

  it('leaves to the operation rules burst operations that never end the way work without load never ends too', () => {
    const b = new TranscriptBuilder();
    const burst = IDS.map((id, i) => {
      const accepted = b.post('plan', { suite: BURST, at: i, took: 10, status: 202, body: { operationId: id } });
      b.read(id, { suite: BURST, at: 1000, body: IN_PROGRESS });
      b.pollEnded(id, accepted.seq, 'deadline', 20_000);
      return accepted;
    });
    // After the burst, work without load never ends either: the provisioner fails that way whatever the load.
    const calm = b.post('apply', { at: 30_000, status: 202, body: { operationId: '1b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c03' } });
    b.read('1b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c03', { at: 31_000, body: IN_PROGRESS });
    b.pollEnded('1b1e2c44-1d3f-4a9b-8c21-5e6f7a8b9c03', calm.seq, 'deadline', 50_000);
    expect(burst).toHaveLength(3);
    expect(judge(b)).toEqual({
      outcome: 'held',
      message:
        '3 calls at once (3 plans, 0 applies, up to 3 in flight together): 3 answered 200 or 202, 0 of 3 accepted operations reached a final answer; 3 calls failed the way the provisioner fails without load too, which answer.status and the operation rules judge',
    });
  });

  it('leaves to other rules a refusal that is no sign of load and that happens without load too', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, status: 400, body: {} });
    b.post('plan', { suite: BURST, at: 1, status: 400, body: {} });
    expect(judge(b)).toEqual({
      outcome: 'not-exercised',
      message: 'no call of the burst was answered as it would be without load; 1 call failed the way the provisioner fails without load too, which answer.status and the operation rules judge',
    });
  });

  it('is not exercised without a burst', () => {
    const b = new TranscriptBuilder();
    everydayPlan(b, IDS[0]!);
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: 'no burst was sent (--burst 0)' });
  });

  it('counts the calls in flight together from send and answer times', () => {
    const b = new TranscriptBuilder();
    const calls = [
      b.post('plan', { at: 0, took: 10 }),
      b.post('plan', { at: 5, took: 10 }),
      b.post('plan', { at: 10, took: 10 }),
      b.post('plan', { at: 30, took: 10 }),
    ];
    expect(mostInFlight(calls)).toBe(2);
    expect(mostInFlight(calls.slice(0, 2))).toBe(2);
    expect(mostInFlight([])).toBe(0);
  });
});
