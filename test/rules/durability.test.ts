import { describe, expect, it } from 'vitest';
import { durabilitySurvivesRestart, RULES } from '../../src/rules/catalog/durability.js';
import type { Judgement } from '../../src/rules/types.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { IN_PROGRESS, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['durability.survives-restart', 'MUST'],
]);

const RESTART = SITUATION_SUITES.restart;
const PLAN_ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const APPLY_ID = '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d';

function judge(b: TranscriptBuilder): Judgement {
  return durabilitySurvivesRestart.judge!(b.transcript, context());
}

/** A plan and an apply accepted before a restart from 100 to 1100 ms, both read in progress before it. */
function acceptedBeforeRestart(b: TranscriptBuilder): { plan: number; apply: number } {
  const plan = b.post('plan', { suite: RESTART, at: 0, status: 202, body: { operationId: PLAN_ID } });
  const apply = b.post('apply', { suite: RESTART, at: 0, status: 202, body: { operationId: APPLY_ID } });
  b.read(PLAN_ID, { suite: RESTART, at: 20, body: IN_PROGRESS });
  b.read(APPLY_ID, { suite: RESTART, at: 20, body: IN_PROGRESS });
  b.restart(100, 1100);
  b.read(PLAN_ID, { suite: RESTART, at: 500, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
  b.read(APPLY_ID, { suite: RESTART, at: 500, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
  return { plan: plan.seq, apply: apply.seq };
}

describe('durability.survives-restart', () => {
  it('holds when the work accepted before the restart is read to its final answer after it', () => {
    const b = new TranscriptBuilder();
    acceptedBeforeRestart(b);
    b.read(PLAN_ID, { suite: RESTART, at: 1500, body: shopDbFinal() });
    b.read(APPLY_ID, { suite: RESTART, at: 1500, body: IN_PROGRESS });
    b.read(APPLY_ID, { suite: RESTART, at: 2500, body: shopDbFinal() });
    expect(judge(b)).toEqual({
      outcome: 'held',
      message: '2 operations in progress across the restart were still known afterwards and reached a final answer',
    });
  });

  it('is broken by a 404 after the restart, with the read and its 202', () => {
    const b = new TranscriptBuilder();
    const { plan, apply } = acceptedBeforeRestart(b);
    const lost = b.read(PLAN_ID, { suite: RESTART, at: 1500, status: 404, body: { message: 'unknown operation' } });
    b.pollEnded(PLAN_ID, plan, 'lost', 1506);
    b.read(APPLY_ID, { suite: RESTART, at: 1500, body: shopDbFinal() });
    const judgement = judge(b);
    if (judgement.outcome !== 'broken') throw new Error(judgement.message);
    expect(judgement.message).toBe('1 of 2 operations in progress across the restart did not survive it');
    expect(judgement.evidence).toEqual([{ note: 'plan shop-db accepted before the restart: its read 400ms after the restart ended answered 404', exchanges: [lost.seq, plan] }]);
    expect(apply).toBeGreaterThan(0);
  });

  it('is broken by work that never ends after the restart', () => {
    const b = new TranscriptBuilder();
    const { plan, apply } = acceptedBeforeRestart(b);
    b.read(PLAN_ID, { suite: RESTART, at: 1500, body: shopDbFinal() });
    b.read(APPLY_ID, { suite: RESTART, at: 1500, body: IN_PROGRESS });
    b.pollEnded(APPLY_ID, apply, 'deadline', 30_000);
    const judgement = judge(b);
    if (judgement.outcome !== 'broken') throw new Error(judgement.message);
    expect(judgement.evidence).toEqual([
      { note: 'apply shop-db accepted before the restart then gave no final answer within maxOperationDuration', exchanges: [apply] },
    ]);
    expect(plan).toBe(1);
  });

  it('leaves work that never ends to operation.within-max-duration when the provisioner ends no work at all', () => {
    const b = new TranscriptBuilder();
    const { apply } = acceptedBeforeRestart(b);
    b.read(PLAN_ID, { suite: RESTART, at: 1500, body: IN_PROGRESS });
    b.read(APPLY_ID, { suite: RESTART, at: 1500, body: IN_PROGRESS });
    b.pollEnded(APPLY_ID, apply, 'deadline', 30_000);
    expect(judge(b)).toEqual({
      outcome: 'not-exercised',
      message: 'no operation of this run reached a final answer, restart or not, so what a restart does to them cannot be told apart',
    });
  });

  it('blames a 404 only when it surely came before the final answer', () => {
    const b = new TranscriptBuilder();
    acceptedBeforeRestart(b);
    // Two readers at once after the restart: one gets the final answer, the other a 404 from a provisioner that forgets at once.
    b.read(PLAN_ID, { suite: RESTART, at: 1500, took: 10, body: shopDbFinal() });
    b.read(PLAN_ID, { suite: RESTART, at: 1501, took: 10, status: 404, body: { error: 'forgotten' } });
    b.read(APPLY_ID, { suite: RESTART, at: 1500, body: shopDbFinal() });
    expect(judge(b).outcome).toBe('held');
  });

  it('is not exercised without a restart, after a failed one, or when no work was in progress', () => {
    const none = new TranscriptBuilder();
    none.post('plan', { suite: RESTART, status: 202, body: { operationId: PLAN_ID } });
    expect(judge(none)).toEqual({
      outcome: 'not-exercised',
      message: 'the provisioner was not restarted: give --restart-command CMD to restart the provisioner during the run',
    });

    const failed = new TranscriptBuilder();
    failed.post('plan', { suite: RESTART, at: 0, status: 202, body: { operationId: PLAN_ID } });
    failed.restart(100, 200, false);
    expect(judge(failed).message).toBe(
      'the restart (restart command: ./restart.sh) did not succeed, so nothing can be said about what survives one: exited with code 1',
    );

    const done = new TranscriptBuilder();
    done.post('plan', { suite: RESTART, at: 0, body: shopDbFinal() });
    done.post('apply', { suite: RESTART, at: 0, status: 202, body: { operationId: APPLY_ID } });
    done.read(APPLY_ID, { suite: RESTART, at: 20, body: shopDbFinal() });
    done.restart(100, 1100);
    expect(judge(done).message).toBe('no operation was in progress when the provisioner was restarted (every call answered 200, or its work had ended)');
  });
});
