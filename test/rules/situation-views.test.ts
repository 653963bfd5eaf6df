import { describe, expect, it } from 'vitest';
import { judgeRules } from '../../src/rules/index.js';
import type { RuleResult } from '../../src/rules/types.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { SituationViews } from '../../src/rules/support/situation-views.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { readTranscriptFile, writeTranscriptFile } from '../../src/transcript/transcript-file.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IN_PROGRESS, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

const ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const RESTART_ID = '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d';

function status(results: RuleResult[], id: string): string {
  return results.find((r) => r.id === id)!.status;
}

/** An everyday run that holds, then a burst call refused, a repeat refused, and a restart that loses its work. */
function disturbedRun(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  const first = b.post('apply', { at: 0, status: 202, body: { operationId: ID } });
  b.read(ID, { at: 10, body: IN_PROGRESS });
  b.read(ID, { at: 1000, body: shopDbFinal() });
  b.post('plan', { at: 0, body: shopDbFinal() });
  b.post('plan', { at: 0, suite: SITUATION_SUITES.burst, status: 429, body: { message: 'slow down' } });
  b.post('apply', { at: 2000, suite: SITUATION_SUITES.repeatApply, repeatOf: first.seq, status: 409, body: { message: 'exists' } });
  const restarted = b.post('plan', { at: 3000, suite: SITUATION_SUITES.restart, status: 202, body: { operationId: RESTART_ID } });
  b.restart(3100, 4000);
  b.read(RESTART_ID, { at: 3500, suite: SITUATION_SUITES.restart, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
  b.read(RESTART_ID, { at: 4500, suite: SITUATION_SUITES.restart, status: 404, body: { message: 'unknown' } });
  b.pollEnded(RESTART_ID, restarted.seq, 'lost', 4506);
  return b;
}

describe('what a deliberate disturbance provokes is judged by its own rule alone', () => {
  it('fails the burst, repeat and restart rules, and no everyday rule', () => {
    const results = judgeRules(disturbedRun().transcript, context());
    const failed = results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id).sort();
    expect(failed).toEqual(['apply.idempotent', 'capacity.burst', 'durability.survives-restart']);
    expect(status(results, 'answer.status')).toBe('pass');
    expect(status(results, 'operation.transient-errors')).toBe('pass');
    expect(status(results, 'operation.not-lost')).toBe('pass');
  });

  it('judges a saved transcript the same way (verify)', async () => {
    const b = disturbedRun();
    const file = join(mkdtempSync(join(tmpdir(), 'pc-views-')), 'transcript.json');
    await writeTranscriptFile(file, b.transcript.exchanges, b.transcript.events, context());
    const saved = await readTranscriptFile(file);
    const again = judgeRules(saved.transcript, saved.context);
    expect(again.map((r) => [r.id, r.status])).toEqual(judgeRules(b.transcript, context()).map((r) => [r.id, r.status]));
    expect(saved.transcript.exchanges.find((e) => e.repeatOf !== undefined)?.repeatOf).toBe(1);
  });

  it('still judges an exchange of another suite in flight during the restart by no everyday rule', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, body: shopDbFinal() });
    b.restart(100, 1000);
    b.post('plan', { at: 500, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
    expect(status(judgeRules(b.transcript, context()), 'answer.status')).toBe('pass');
  });

  it('leaves a 503 to an everyday call during the burst to capacity.burst, and one after it to answer.status', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, body: shopDbFinal() });
    b.post('plan', { at: 0, took: 100, suite: SITUATION_SUITES.burst, body: shopDbFinal() });
    b.post('apply', { at: 50, status: 503, body: {} });
    const during = judgeRules(b.transcript, context());
    expect([status(during, 'answer.status'), status(during, 'capacity.burst')]).toEqual(['pass', 'fail']);
    b.post('apply', { at: 500, status: 503, body: {} });
    expect(status(judgeRules(b.transcript, context()), 'answer.status')).toBe('fail');
  });
});

describe('the view without the restart: what a restart provoked in work accepted before it is durability’s alone', () => {
  const OTHER = '3c9d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
  const withoutRestart = (b: TranscriptBuilder): Transcript => new SituationViews(b.transcript).for('without-restart');
  const seqsOf = (transcript: Transcript): number[] => transcript.exchanges.map((e) => e.seq);
  const endsIn = (transcript: Transcript): string[] => transcript.events.flatMap((e) => (e.type === 'poll-ended' ? [`${e.acceptedSeq}:${e.reason}`] : []));

  /** An apply accepted at 0 and read in progress at 20, then a restart from 100 to 1100. */
  function restartedWhileWorking(b: TranscriptBuilder): { post: Exchange; before: Exchange } {
    const post = b.post('apply', { at: 0, status: 202, body: { operationId: ID } });
    const before = b.read(ID, { at: 20, body: IN_PROGRESS });
    b.restart(100, 1100);
    return { post, before };
  }

  it('leaves out the 404, 5xx and failed reads after it of work that ended, and keeps every other answer', () => {
    const b = new TranscriptBuilder();
    const { post, before } = restartedWhileWorking(b);
    b.read(ID, { at: 1200, status: 404, body: {} });
    b.read(ID, { at: 1300, status: 500, body: {} });
    b.read(ID, { at: 1400, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
    const refusedAnswer = b.read(ID, { at: 1450, status: 499, body: {} });
    const working = b.read(ID, { at: 1500, body: IN_PROGRESS });
    const final = b.read(ID, { at: 1600, body: shopDbFinal() });
    b.pollEnded(ID, post.seq, 'final', 1606);
    const view = withoutRestart(b);
    expect(seqsOf(view)).toEqual([post.seq, before.seq, refusedAnswer.seq, working.seq, final.seq]);
    expect(endsIn(view)).toEqual([`${post.seq}:final`]);
  });

  it('leaves out every read after it of work that never ended, and how its following ended', () => {
    const b = new TranscriptBuilder();
    const { post, before } = restartedWhileWorking(b);
    b.read(ID, { at: 1200, body: IN_PROGRESS });
    b.pollEnded(ID, post.seq, 'deadline', 1300);
    const view = withoutRestart(b);
    expect(seqsOf(view)).toEqual([post.seq, before.seq]);
    expect(endsIn(view)).toEqual([]);
  });

  it('keeps every read of work lost before it began, and of work accepted after it began', () => {
    const b = new TranscriptBuilder();
    const lostPost = b.post('apply', { at: 0, status: 202, body: { operationId: ID } });
    const lostEarly = b.read(ID, { at: 20, status: 404, body: {} });
    b.restart(100, 1100);
    const later = b.post('plan', { at: 1150, status: 202, body: { operationId: OTHER } });
    const lostAgain = b.read(ID, { at: 1200, status: 404, body: {} });
    const laterLost = b.read(OTHER, { at: 1210, status: 404, body: {} });
    b.pollEnded(ID, lostPost.seq, 'lost', 1205);
    const view = withoutRestart(b);
    expect(seqsOf(view)).toEqual([lostPost.seq, lostEarly.seq, later.seq, lostAgain.seq, laterLost.seq]);
    expect(endsIn(view)).toEqual([`${lostPost.seq}:lost`]);
  });

  it('takes a 404 sent as the restart began, and work accepted as it began, as the restart’s', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: ID } });
    b.read(ID, { at: 100, status: 404, body: {} });
    b.post('plan', { at: 95, status: 202, body: { operationId: OTHER } });
    b.restart(100, 1100);
    b.read(ID, { at: 1200, status: 404, body: {} });
    b.read(OTHER, { at: 1210, body: IN_PROGRESS });
    expect(seqsOf(withoutRestart(b))).toEqual([1]);
  });

  it('judges work by the first restart after its 202: a 404 between two restarts was lost before the second', () => {
    const b = new TranscriptBuilder();
    b.restart(100, 200);
    const post = b.post('apply', { at: 300, status: 202, body: { operationId: ID } });
    const lost = b.read(ID, { at: 500, status: 404, body: {} });
    b.restart(1000, 1100);
    const lostAgain = b.read(ID, { at: 1200, status: 404, body: {} });
    expect(seqsOf(withoutRestart(b))).toEqual([post.seq, lost.seq, lostAgain.seq]);
  });

  it('leaves out how the restart suite’s own following ended, even for work that ended', () => {
    const b = new TranscriptBuilder();
    const post = b.post('plan', { at: 0, suite: SITUATION_SUITES.restart, status: 202, body: { operationId: RESTART_ID } });
    b.read(RESTART_ID, { at: 50, suite: SITUATION_SUITES.restart, body: shopDbFinal() });
    b.pollEnded(RESTART_ID, post.seq, 'final', 60);
    b.restart(100, 1100);
    const everyday = b.post('plan', { at: 1200, body: shopDbFinal() });
    const view = withoutRestart(b);
    expect(seqsOf(view)).toEqual([everyday.seq]);
    expect(endsIn(view)).toEqual([]);
  });
});
