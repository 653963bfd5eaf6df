import { describe, expect, it } from 'vitest';
import { judgeRules } from '../../src/rules/index.js';
import { capacityBurst } from '../../src/rules/catalog/capacity.js';
import { overloadedByPropertyLoad, propertyLoads, SITUATION_SUITES } from '../../src/transcript/situations.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { T0, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

const IDS = ['6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b', '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d', '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d'];
const BATCH = 'property/generated-plans#2';

/** Three cases of one property batch, planned at once and followed to their final answers until 1000 ms. */
function batchOfThree(b: TranscriptBuilder): void {
  IDS.forEach((id, i) => {
    b.post('plan', { suite: `${BATCH}.${i + 1}`, at: 100 + i, took: 20, status: 202, body: { operationId: id } });
    b.read(id, { suite: `${BATCH}.${i + 1}`, at: 900 + i, took: 10, body: shopDbFinal() });
  });
}

function statusOf(b: TranscriptBuilder, id: string, transcript: Transcript = b.transcript): string | undefined {
  return judgeRules(transcript, context(), { only: [id] }).find((result) => result.id === id)?.status;
}

describe('batches of property cases as load', () => {
  it('spans each batch of several cases from its first send to its last end, and leaves out batches of one case', () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    b.post('plan', { suite: 'property/model-based-runs#1', at: 0, took: 5000, status: 202, body: { operationId: IDS[0] } });
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 0, took: 5000 });
    expect(propertyLoads(b.transcript)).toEqual([{ batch: BATCH, startedAt: T0 + 100, endedAt: T0 + 912, cases: 3 }]);
  });

  it('takes only a 429 or 503 to a plan or apply in flight with a batch as its load', () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    const loads = propertyLoads(b.transcript);
    expect(overloadedByPropertyLoad(b.post('apply', { suite: 'scenario/repeat-apply', at: 500, status: 429 }), loads)?.batch).toBe(BATCH);
    expect(overloadedByPropertyLoad(b.post('plan', { suite: `${BATCH}.1`, at: 150, status: 503 }), loads)?.batch).toBe(BATCH);
    expect(overloadedByPropertyLoad(b.post('plan', { at: 500, status: 500 }), loads)).toBeUndefined();
    expect(overloadedByPropertyLoad(b.post('plan', { at: 500, error: { kind: 'reset', message: 'socket hang up' } }), loads)).toBeUndefined();
    expect(overloadedByPropertyLoad(b.post('plan', { at: 2000, status: 429 }), loads)).toBeUndefined();
    expect(overloadedByPropertyLoad(b.read(IDS[0]!, { at: 500, status: 503 }), loads)).toBeUndefined();
    expect(overloadedByPropertyLoad(b.post('plan', { suite: SITUATION_SUITES.burst, at: 500, status: 429 }), loads)).toBeUndefined();
  });

  it("blames a scenario's 429 under a batch on capacity.burst, not answer.status, even without a burst", () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 500, took: 5, status: 429, body: {} });
    expect(statusOf(b, 'answer.status')).toBe('pass');
    const judgement = capacityBurst.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', message: '1 call was answered 429 or 503 while batches of property cases were in flight; no burst was sent (--burst 0)' });
    expect(judgement.outcome === 'broken' && judgement.evidence.map((e) => e.note)).toEqual([
      `plan shop-db of scenario/plan-and-apply answered 429 while 3 cases of ${BATCH} were in flight`,
    ]);
  });

  it('still blames answer.status for a 429 away from any batch, and for a 500 within one', () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    b.post('plan', { suite: 'scenario/plan-and-apply', at: 3000, took: 5, status: 429, body: {} });
    expect(statusOf(b, 'answer.status')).toBe('fail');
    expect(capacityBurst.judge(b.transcript, context()).outcome).toBe('not-exercised');
    const within = new TranscriptBuilder();
    batchOfThree(within);
    within.post('plan', { suite: 'scenario/plan-and-apply', at: 500, took: 5, status: 500, body: {} });
    expect(statusOf(within, 'answer.status')).toBe('fail');
  });

  it("judges a case's slice with the run's batches it was given: its 429 is load there as in the run", () => {
    const b = new TranscriptBuilder();
    batchOfThree(b);
    b.post('plan', { suite: `${BATCH}.4`, at: 200, took: 5, status: 429, body: {} });
    const slice = new Transcript(b.transcript.exchanges.filter((e) => e.suite === `${BATCH}.4`));
    // Alone, the slice holds one case: no batch, so the refusal is an everyday answer's.
    expect(statusOf(b, 'answer.status', slice)).toBe('fail');
    const withLoads = judgeRules(slice, context(), { only: ['answer.status'] }, propertyLoads(b.transcript));
    expect(withLoads.find((result) => result.id === 'answer.status')?.status).toBe('not-exercised');
    expect(statusOf(b, 'answer.status')).toBe('pass');
  });
});
