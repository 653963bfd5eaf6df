import { describe, expect, it } from 'vitest';
import { durabilitySurvivesRestart, RESTART_HINT } from '../../src/rules/catalog/durability.js';
import type { Judgement } from '../../src/rules/types.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { IN_PROGRESS, T0, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

const RESTART = SITUATION_SUITES.restart;
const ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const OTHER = '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d';
const THIRD = '3c9d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const HELD_ONE = '1 operation in progress across the restart was still known afterwards and reached a final answer';
const NOTHING_IN_PROGRESS = 'no operation was in progress when the provisioner was restarted (every call answered 200, or its work had ended)';
const ENDS_NOTHING = 'no operation of this run reached a final answer, restart or not, so what a restart does to them cannot be told apart';

function judge(b: TranscriptBuilder): Judgement {
  return durabilitySurvivesRestart.judge(b.transcript, context());
}

function brokenOf(judgement: Judgement): { message: string; evidence: Array<{ note: string; exchanges: number[] }> } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { message: judgement.message, evidence: judgement.evidence };
}

/** A plan of the restart suite accepted at 0 (202 at 5), read in progress at 20; the restart runs from 100 to 1100. */
function accepted(b: TranscriptBuilder, restart = true): number {
  const post = b.post('plan', { suite: RESTART, at: 0, status: 202, body: { operationId: ID } });
  b.read(ID, { suite: RESTART, at: 20, body: IN_PROGRESS });
  if (restart) b.restart(100, 1100);
  return post.seq;
}

describe('durability.survives-restart: when it cannot judge', () => {
  it('repeats why the kit skipped the restart', () => {
    const b = new TranscriptBuilder();
    accepted(b, false);
    b.transcript.note({ type: 'restart-skipped', at: T0 + 50, message: 'no work was in progress to survive a restart' });
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: 'no work was in progress to survive a restart' });
  });

  it('finds the skip among other events', () => {
    const b = new TranscriptBuilder();
    const post = accepted(b, false);
    b.pollEnded(ID, post, 'aborted', 40);
    b.transcript.note({ type: 'restart-skipped', at: T0 + 50, message: 'no work was in progress to survive a restart' });
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: 'no work was in progress to survive a restart' });
  });

  it('is not applicable when every call was answered at once, restart skipped or not', () => {
    for (const skip of [true, false]) {
      const b = new TranscriptBuilder();
      b.post('plan', { suite: RESTART, at: 0, body: shopDbFinal() });
      b.post('apply', { suite: RESTART, at: 10, body: shopDbFinal() });
      if (skip) b.transcript.note({ type: 'restart-skipped', at: T0 + 50, message: 'no opening call was answered with 202' });
      expect(judge(b)).toEqual({ outcome: 'not-applicable', message: 'all 2 plan and apply calls were answered 200 at once: no operation could be in progress across a restart' });
    }
  });

  it('gives the hint when there was no restart and no skip', () => {
    const b = new TranscriptBuilder();
    accepted(b, false);
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: `the provisioner was not restarted: ${RESTART_HINT}` });
    expect(RESTART_HINT).toBe('give --restart-command CMD to restart the provisioner during the run');
  });

  it('speaks of the traffic, not of a flag, when the traffic was observed', () => {
    const b = new TranscriptBuilder();
    accepted(b, false);
    expect(durabilitySurvivesRestart.judge(b.transcript, context({ observed: true }))).toEqual({
      outcome: 'not-exercised',
      message: 'the traffic showed no restart of the provisioner',
    });
  });

  it('says a restart that never ended never ended', () => {
    const b = new TranscriptBuilder();
    accepted(b, false);
    b.transcript.note({ type: 'restart-started', at: T0 + 100, describe: 'restart command: ./restart.sh' });
    b.read(ID, { suite: RESTART, at: 1500, body: shopDbFinal() });
    expect(judge(b)).toEqual({
      outcome: 'not-exercised',
      message: 'the restart (restart command: ./restart.sh) did not succeed, so nothing can be said about what survives one: it never ended',
    });
  });

  it('does not judge an operation the kit stopped following', () => {
    const b = new TranscriptBuilder();
    accepted(b);
    // Work elsewhere ends, so work that never ends would count.
    b.post('plan', { at: 0, status: 202, body: { operationId: OTHER } });
    b.read(OTHER, { at: 20, body: shopDbFinal() });
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: NOTHING_IN_PROGRESS });
  });

  it('leaves out 202s it cannot follow, work that had ended, and work lost before the restart began', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: RESTART, at: 0, status: 202, body: {} });
    b.post('apply', { suite: RESTART, at: 0, body: shopDbFinal() });
    b.post('apply', { at: 0, status: 202, body: { operationId: THIRD } });
    b.read(THIRD, { at: 20, body: shopDbFinal() });
    const early = b.post('plan', { at: 0, status: 202, body: { operationId: OTHER } });
    b.read(OTHER, { at: 30, status: 404, body: {} });
    b.pollEnded(OTHER, early.seq, 'lost', 36);
    b.restart(100, 1100);
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: NOTHING_IN_PROGRESS });
  });

  it('judges the work of any suite in progress across the restart: the run restarts while its opening work runs', () => {
    const b = new TranscriptBuilder();
    const everyday = b.post('plan', { at: 0, status: 202, body: { operationId: OTHER } });
    b.read(OTHER, { at: 20, body: IN_PROGRESS });
    b.restart(100, 1100);
    const lost = b.read(OTHER, { at: 1500, status: 404, body: {} });
    b.pollEnded(OTHER, everyday.seq, 'lost', 1506);
    b.post('apply', { at: 2000, status: 202, body: { operationId: THIRD } });
    b.read(THIRD, { at: 2020, body: shopDbFinal() });
    expect(brokenOf(judge(b)).evidence).toEqual([{ note: 'plan shop-db accepted before the restart: its read 400ms after the restart ended answered 404', exchanges: [lost.seq, everyday.seq] }]);
  });
});

describe('durability.survives-restart: which restart an operation crossed', () => {
  it('takes an operation whose 202 ended as the restart began for one in progress', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: RESTART, at: 0, took: 100, status: 202, body: { operationId: ID } });
    b.restart(100, 1100);
    b.read(ID, { suite: RESTART, at: 1500, body: shopDbFinal() });
    expect(judge(b)).toEqual({ outcome: 'held', message: HELD_ONE });
  });

  it('leaves out an operation accepted after the restart began', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { suite: RESTART, at: 0, took: 101, status: 202, body: { operationId: ID } });
    b.restart(100, 1100);
    b.read(ID, { suite: RESTART, at: 1500, status: 404, body: {} });
    b.post('apply', { at: 0, status: 202, body: { operationId: OTHER } });
    b.read(OTHER, { at: 20, body: shopDbFinal() });
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: NOTHING_IN_PROGRESS });
  });

  it('leaves out an operation whose final answer arrived as the restart began, and judges one that arrived just after', () => {
    const ended = new TranscriptBuilder();
    accepted(ended, false);
    ended.read(ID, { suite: RESTART, at: 95, took: 5, body: shopDbFinal() });
    ended.restart(100, 1100);
    expect(judge(ended)).toEqual({ outcome: 'not-exercised', message: NOTHING_IN_PROGRESS });

    const crossed = new TranscriptBuilder();
    accepted(crossed, false);
    crossed.read(ID, { suite: RESTART, at: 96, took: 5, body: shopDbFinal() });
    crossed.restart(100, 1100);
    expect(judge(crossed)).toEqual({ outcome: 'held', message: HELD_ONE });
  });

  it('pairs each operation with the first restart after its 202', () => {
    const b = new TranscriptBuilder();
    b.restart(100, 200);
    // Accepted after the first restart, ended before the second: it crossed no restart.
    b.post('plan', { suite: RESTART, at: 300, status: 202, body: { operationId: ID } });
    b.read(ID, { suite: RESTART, at: 400, body: shopDbFinal() });
    b.restart(500, 600);
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: NOTHING_IN_PROGRESS });
    // One accepted before the second restart and lost after it is judged against the second.
    const lostPost = b.post('apply', { suite: RESTART, at: 450, status: 202, body: { operationId: OTHER } });
    const lost = b.read(OTHER, { suite: RESTART, at: 650, status: 404, body: {} });
    b.pollEnded(OTHER, lostPost.seq, 'lost', 656);
    expect(brokenOf(judge(b)).evidence).toEqual([
      { note: 'apply shop-db accepted before the restart: its read 50ms after the restart ended answered 404', exchanges: [lost.seq, lostPost.seq] },
    ]);
  });

  it('leaves out an operation accepted after the last restart', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OTHER } });
    b.read(OTHER, { at: 20, body: shopDbFinal() });
    b.restart(100, 200);
    b.post('plan', { suite: RESTART, at: 300, status: 202, body: { operationId: ID } });
    b.read(ID, { suite: RESTART, at: 400, status: 404, body: {} });
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: NOTHING_IN_PROGRESS });
  });
});

describe('durability.survives-restart: when a read answered 404', () => {
  function lostAt(at: number): { message: string; evidence: Array<{ note: string; exchanges: number[] }> } {
    const b = new TranscriptBuilder();
    const post = accepted(b);
    const read = b.read(ID, { suite: RESTART, at, status: 404, body: {} });
    b.pollEnded(ID, post, 'lost', at + 6);
    const result = brokenOf(judge(b));
    expect(result.evidence[0]!.exchanges).toEqual([read.seq, post]);
    return result;
  }

  it('says when the 404 came, against the restart', () => {
    expect(lostAt(1100).evidence[0]!.note).toBe('plan shop-db accepted before the restart: its read 0ms after the restart ended answered 404');
    expect(lostAt(3600).evidence[0]!.note).toBe('plan shop-db accepted before the restart: its read 2.5s after the restart ended answered 404');
    expect(lostAt(1099).evidence[0]!.note).toBe('plan shop-db accepted before the restart: its read during the restart answered 404');
    expect(lostAt(100).evidence[0]!.note).toBe('plan shop-db accepted before the restart: its read during the restart answered 404');
  });

  it('leaves work lost before the restart began to operation.not-lost', () => {
    const b = new TranscriptBuilder();
    accepted(b);
    b.read(ID, { suite: RESTART, at: 99, status: 404, body: {} });
    expect(judge(b).outcome).not.toBe('broken');
  });

  it('counts a lost operation as judged even when the provisioner ends no work, with the counts in the message', () => {
    const { message } = lostAt(1500);
    expect(message).toBe('1 of 1 operation in progress across the restart did not survive it');
  });

  it('blames a 404 before a final answer that came later', () => {
    const b = new TranscriptBuilder();
    const post = accepted(b);
    const lost = b.read(ID, { suite: RESTART, at: 1200, status: 404, body: {} });
    b.read(ID, { suite: RESTART, at: 1300, body: shopDbFinal() });
    expect(brokenOf(judge(b)).evidence).toEqual([{ note: 'plan shop-db accepted before the restart: its read 100ms after the restart ended answered 404', exchanges: [lost.seq, post] }]);
  });

  it('blames only the first 404, and names a call without a change set name by its kind', () => {
    const b = new TranscriptBuilder();
    const post = b.post('apply', { suite: RESTART, at: 0, status: 202, body: { operationId: ID } });
    delete post.changeSet;
    b.restart(100, 1100);
    const first = b.read(ID, { suite: RESTART, at: 1200, status: 404, body: {} });
    b.read(ID, { suite: RESTART, at: 1300, status: 404, body: {} });
    b.pollEnded(ID, post.seq, 'lost', 1306);
    expect(brokenOf(judge(b)).evidence).toEqual([{ note: 'apply  accepted before the restart: its read 100ms after the restart ended answered 404', exchanges: [first.seq, post.seq] }]);
  });
});

describe('durability.survives-restart: work that never ends', () => {
  it('blames it where another operation reached its final answer', () => {
    const b = new TranscriptBuilder();
    const post = accepted(b);
    b.post('plan', { at: 0, status: 202, body: { operationId: OTHER } });
    b.read(OTHER, { at: 20, body: shopDbFinal() });
    b.pollEnded(ID, post, 'final', 5000);
    const { message, evidence } = brokenOf(judge(b));
    expect(evidence).toEqual([{ note: 'plan shop-db accepted before the restart then gave no final answer', exchanges: [post] }]);
    expect(message).toBe('1 of 1 operation in progress across the restart did not survive it');
  });

  it('names by its kind alone work without a change set name', () => {
    const b = new TranscriptBuilder();
    const post = b.post('apply', { suite: RESTART, at: 0, status: 202, body: { operationId: ID } });
    delete post.changeSet;
    b.restart(100, 1100);
    b.post('plan', { at: 0, status: 202, body: { operationId: OTHER } });
    b.read(OTHER, { at: 20, body: shopDbFinal() });
    b.pollEnded(ID, post.seq, 'deadline', 30_000);
    expect(brokenOf(judge(b)).evidence).toEqual([{ note: 'apply  accepted before the restart then gave no final answer within maxOperationDuration', exchanges: [post.seq] }]);
  });

  it('leaves it alone where only 200 answers ended: a full provisioner answers at once, and its operations may never end', () => {
    const b = new TranscriptBuilder();
    const post = accepted(b);
    b.post('plan', { at: 0, body: shopDbFinal() });
    b.post('apply', { suite: RESTART, at: 1200, body: shopDbFinal() });
    b.pollEnded(ID, post, 'deadline', 30_000);
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: ENDS_NOTHING });
  });

  it('does not take a 200 without a final outcome for work that ended', () => {
    const b = new TranscriptBuilder();
    const post = accepted(b);
    b.post('plan', { at: 0, body: IN_PROGRESS });
    b.pollEnded(ID, post, 'deadline', 30_000);
    expect(judge(b)).toEqual({ outcome: 'not-exercised', message: ENDS_NOTHING });
  });

  it('counts every operation that survived, with the plural', () => {
    const b = new TranscriptBuilder();
    accepted(b);
    b.post('apply', { suite: RESTART, at: 0, status: 202, body: { operationId: OTHER } });
    b.read(ID, { suite: RESTART, at: 1500, body: shopDbFinal() });
    b.read(OTHER, { suite: RESTART, at: 1500, body: shopDbFinal() });
    expect(judge(b)).toEqual({
      outcome: 'held',
      message: '2 operations in progress across the restart were still known afterwards and reached a final answer',
    });
  });
});
