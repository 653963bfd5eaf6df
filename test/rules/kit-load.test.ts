import { describe, expect, it } from 'vitest';
import { judgeRules } from '../../src/rules/index.js';
import { capacityBurst } from '../../src/rules/catalog/capacity.js';
import { KitLoad, overloadedByKit, SITUATION_SUITES } from '../../src/transcript/situations.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

const IDS = ['6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b', '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d', '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d'];
const BATCH = 'property/generated-plans#2';

/** Three cases of a property batch, planned at once at 100 ms, and followed to their final answers at about 900 ms. */
function batchOfThree(b: TranscriptBuilder): void {
  IDS.forEach((id, i) => {
    b.post('plan', { suite: `${BATCH}.${i + 1}`, at: 100 + i, took: 20, status: 202, body: { operationId: id } });
    b.read(id, { suite: `${BATCH}.${i + 1}`, at: 500 + i, took: 10, body: { outcome: 'in_progress', description: 'Working.', results: [] } });
    b.read(id, { suite: `${BATCH}.${i + 1}`, at: 900 + i, took: 10, body: shopDbFinal() });
    b.read(id, { suite: `${BATCH}.${i + 1}`, at: 2000 + i, took: 10, body: shopDbFinal() });
  });
}

function statusOf(transcript: Transcript, id: string, load?: KitLoad): string | undefined {
  return judgeRules(transcript, context(), { only: [id] }, load).find((result) => result.id === id)?.status;
}

describe("the kit's own load", () => {
  it("counts the kit's other calls and operations in flight, each until its first final answer", () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    const load = new KitLoad(b.transcript);
    expect(load.besides(b.post('plan', { at: 500, took: 5 }))).toBe(3);
    expect(load.besides(b.post('plan', { at: 950, took: 5 }))).toBe(0);
    expect(load.besides(b.post('plan', { at: 0, took: 5 }))).toBe(0);
    // Its own span is not counted; a read is no plan or apply, so it counts them all.
    expect(load.besides(b.transcript.exchanges[0]!)).toBe(2);
    expect(load.besides(b.read(IDS[0]!, { at: 500 }))).toBe(3);
  });

  it('takes a 429 or 503 to a plan or apply as load only when other work of the kit was in flight', () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    b.post('apply', { at: 0, took: 5, body: shopDbFinal() });
    const repeat = b.post('apply', { suite: 'scenario/repeat-apply', at: 500, status: 429 });
    const ownCase = b.post('plan', { suite: `${BATCH}.4`, at: 105, status: 503 });
    const error500 = b.post('plan', { at: 500, status: 500 });
    const reset = b.post('plan', { at: 500, error: { kind: 'reset', message: 'socket hang up' } });
    const alone = b.post('plan', { at: 5000, status: 429 });
    const read = b.read(IDS[0]!, { at: 500, status: 503 });
    const burst = b.post('plan', { suite: SITUATION_SUITES.burst, at: 500, status: 429 });
    const load = new KitLoad(b.transcript);
    expect([repeat, ownCase, error500, reset, alone, read, burst].map((e) => overloadedByKit(e, load))).toEqual([true, true, false, false, false, false, false]);
  });

  it('leaves a 429 or 503 to a kind of call the provisioner never answered 200 or 202 to the everyday rules', () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    const apply = b.post('apply', { at: 500, status: 503 });
    expect(overloadedByKit(apply, new KitLoad(b.transcript))).toBe(false);
    expect(statusOf(b.transcript, 'answer.status')).toBe('fail');
  });

  it("blames a scenario's 429 under the kit's load on capacity.burst, not answer.status, even without a burst", () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 500, took: 5, status: 429, body: {} });
    expect(statusOf(b.transcript, 'answer.status')).toBe('pass');
    const judgement = capacityBurst.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', message: '1 call was answered 429 or 503 while the provisioner held other work of the kit; no burst was sent (--burst 0)' });
    expect(judgement.outcome === 'broken' && judgement.evidence.map((e) => e.note)).toEqual(['plan shop-db of scenario/plan-and-apply answered 429 while the kit had 3 other calls or operations in flight']);
  });

  it('counts one other call or operation in the singular, and two refused calls in the plural', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: `${BATCH}.1`, at: 100, took: 20, status: 202, body: { operationId: IDS[0] } });
    b.read(IDS[0]!, { suite: `${BATCH}.1`, at: 900, took: 10, body: shopDbFinal() });
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 500, took: 5, status: 429, body: {} });
    const one = capacityBurst.judge(b.transcript, context());
    expect(one.outcome === 'broken' && one.evidence.map((e) => e.note)).toEqual(['plan shop-db of scenario/plan-and-apply answered 429 while the kit had 1 other call or operation in flight']);
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 600, took: 5, status: 503, body: {} });
    expect(capacityBurst.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      message: '2 calls were answered 429 or 503 while the provisioner held other work of the kit; no burst was sent (--burst 0)',
    });
  });

  it('tells a refusal under the kit load apart from a burst that held', () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 500, took: 5, status: 429, body: {} });
    b.post('plan', { suite: SITUATION_SUITES.burst, at: 3000, took: 5, body: shopDbFinal() });
    b.post('plan', { suite: SITUATION_SUITES.burst, at: 3000, took: 5, body: shopDbFinal() });
    const judgement = capacityBurst.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 1, message: '1 call was answered 429 or 503 while the provisioner held other work of the kit' });
  });

  it('says of observed traffic that it had no burst, rather than that none was sent', () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    expect(capacityBurst.judge(b.transcript, context({ observed: true }))).toEqual({
      outcome: 'not-exercised',
      message: 'the traffic had no burst of calls sent at once to load the provisioner',
    });
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 500, took: 5, status: 429, body: {} });
    expect(capacityBurst.judge(b.transcript, context({ observed: true }))).toMatchObject({
      outcome: 'broken',
      message: '1 call was answered 429 or 503 while the provisioner held other work of the kit; the traffic had no burst of calls sent at once to load the provisioner',
    });
  });

  it('still blames answer.status for a 429 to a call the kit sent alone, and for a 500 under load', () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 5000, took: 5, status: 429, body: {} });
    expect(statusOf(b.transcript, 'answer.status')).toBe('fail');
    expect(capacityBurst.judge(b.transcript, context()).outcome).toBe('not-exercised');
    const within = new TranscriptBuilder();
    batchOfThree(within);
    within.post('plan', { suite: 'scenario/plan-and-apply', at: 500, took: 5, status: 500, body: {} });
    expect(statusOf(within.transcript, 'answer.status')).toBe('fail');
  });

  it("judges a case's slice with the run's load it was given: its 429 is load there as in the run", () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    b.post('plan', { suite: `${BATCH}.4`, at: 200, took: 5, status: 429, body: {} });
    const slice = new Transcript(b.transcript.exchanges.filter((e) => e.suite === `${BATCH}.4`));
    // Alone, the slice holds one call and no other work: the refusal is an everyday answer's.
    expect(statusOf(slice, 'answer.status')).toBe('fail');
    expect(statusOf(slice, 'answer.status', new KitLoad(b.transcript))).toBe('not-exercised');
    expect(statusOf(b.transcript, 'answer.status')).toBe('pass');
  });
});
