import { describe, expect, it } from 'vitest';
import { lateTargets } from '../../suites/scenarios/late-reads.js';
import { operationFinalRetained } from '../../src/rules/catalog/operation-final.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { IN_PROGRESS, T0, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

/** An operation of `suite` accepted at `at` and read to its final answer 100 ms later (the answer takes 5 ms). */
function finished(b: TranscriptBuilder, id: string, suite: string, at: number): void {
  b.post('apply', { suite, at, status: 202, body: { operationId: id } });
  b.read(id, { suite, at: at + 100, body: shopDbFinal() });
}

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the late reads', () => {
  it('read finished operations again, the oldest first, skipping those finished too recently', () => {
    const b = new TranscriptBuilder();
    finished(b, uuid(2), 'scenario/plan-and-apply', 200);
    finished(b, uuid(1), 'scenario/plan-and-apply', 0);
    finished(b, uuid(3), 'scenario/plan-and-apply', 5_000);
    // Never finished: nothing to read again.
    b.post('apply', { suite: 'scenario/plan-and-apply', at: 0, status: 202, body: { operationId: uuid(4) } });
    b.read(uuid(4), { suite: 'scenario/plan-and-apply', at: 100, body: IN_PROGRESS });
    const targets = lateTargets(b.transcript, T0 + 1_000);
    expect(targets).toEqual([
      { suite: SITUATION_SUITES.lateReads, tag: 'read-after-final', operationId: uuid(1), path: uuid(1) },
      { suite: SITUATION_SUITES.lateReads, tag: 'read-after-final', operationId: uuid(2), path: uuid(2) },
    ]);
  });

  it('take at most a dozen of one suite, the sub-cases of a property as one, and at most 48 in all', () => {
    const b = new TranscriptBuilder();
    for (let i = 0; i < 20; i++) finished(b, uuid(i), 'scenario/burst', i);
    for (let i = 0; i < 20; i++) finished(b, uuid(100 + i), `property/model-based-runs#1.${i + 1}`, 100 + i);
    for (let s = 0; s < 4; s++) for (let i = 0; i < 20; i++) finished(b, uuid(1000 * (s + 1) + i), `scenario/s${s}`, 200 + i);
    const targets = lateTargets(b.transcript, T0 + 10_000);
    expect(targets).toHaveLength(48);
    const suiteOf = (id: string): string => b.transcript.exchanges.find((e) => e.tag === 'apply' && JSON.stringify(e.response?.json).includes(id))!.suite.replace(/#.*/, '');
    const counts = new Map<string, number>();
    for (const target of targets) counts.set(suiteOf(target.operationId), (counts.get(suiteOf(target.operationId)) ?? 0) + 1);
    expect(counts.get('scenario/burst')).toBe(12);
    expect(counts.get('property/model-based-runs')).toBe(12);
    expect(Math.max(...counts.values())).toBe(12);
  });

  it('read each unknown id read earlier once more, at most eight, with its path encoded', () => {
    const b = new TranscriptBuilder();
    b.read('a b', { tag: 'read-unknown', status: 404, body: {} });
    b.read('a b', { tag: 'read-unknown', status: 404, body: {} });
    for (let i = 0; i < 10; i++) b.read(uuid(i), { tag: 'read-unknown', status: 404, body: {} });
    const targets = lateTargets(b.transcript, T0);
    expect(targets).toHaveLength(8);
    expect(targets[0]).toEqual({ suite: SITUATION_SUITES.lateReads, tag: 'read-unknown', operationId: 'a b', path: 'a%20b' });
  });

  it('do not count against keeping a final answer for a while: a provisioner may forget it by then', () => {
    const b = new TranscriptBuilder();
    finished(b, uuid(1), 'scenario/plan-and-apply', 0);
    b.read(uuid(1), { tag: 'read-after-final', at: 110, body: shopDbFinal() });
    b.read(uuid(1), { tag: 'read-after-final', suite: SITUATION_SUITES.lateReads, at: 60_000, status: 404, body: {} });
    expect(operationFinalRetained.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '1 read after a final answer got the same final answer again' });
  });
});
