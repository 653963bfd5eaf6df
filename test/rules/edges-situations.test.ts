import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/rules/index.js';
import { SituationViews } from '../../src/rules/support/situation-views.js';
import { burstWindow, isBusyAnswer, isOverloadAnswer, KitLoad, overlaps, overloadedByBurst, restartWindows, SITUATION_SUITES } from '../../src/transcript/situations.js';
import { pollEnds } from '../../src/transcript/views.js';
import type { Transcript } from '../../src/transcript/transcript.js';
import { IN_PROGRESS, T0, TranscriptBuilder, shopDbFinal } from '../support/transcript-builder.js';

const ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const RESTART_ID = '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d';
const BURST = SITUATION_SUITES.burst;

/** What a rule sees: the view its own `view` field names. */
function seenBy(views: SituationViews, ruleId: string): Transcript {
  return views.for(RULES.find((rule) => rule.id === ruleId)!.view);
}

function seqs(transcript: Transcript): number[] {
  return transcript.exchanges.map((e) => e.seq);
}

const EVERYDAY_RULES = ['answer.json', 'operation.not-lost', 'apply.idempotent', 'capacity.burst', 'input.malformed-json'];

describe('SituationViews: a run with nothing to set apart', () => {
  it('gives every rule the transcript itself', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, status: 202, body: { operationId: ID } });
    b.read(ID, { at: 10, body: shopDbFinal() });
    b.transcript.note({ type: 'restart-skipped', at: T0 + 20, message: 'no work in progress' });
    const views = new SituationViews(b.transcript);
    for (const id of ['durability.survives-restart', 'answer.status', 'answer.prompt', ...EVERYDAY_RULES]) expect(seenBy(views, id)).toBe(b.transcript);
  });
});

describe('SituationViews: around a restart', () => {
  /** An everyday plan before the restart, the restart suite's work, reads refused while the provisioner restarts, and a plan after. */
  function restarted(): { b: TranscriptBuilder; before: number; restartPost: number; during: number; after: number; touching: number } {
    const b = new TranscriptBuilder();
    const before = b.post('plan', { at: 0, status: 202, body: { operationId: ID } });
    b.read(ID, { at: 10, body: shopDbFinal() });
    b.pollEnded(ID, before.seq, 'final', 15);
    const restartPost = b.post('apply', { at: 50, suite: SITUATION_SUITES.restart, status: 202, body: { operationId: RESTART_ID } });
    b.restart(100, 200);
    const during = b.read(RESTART_ID, { at: 150, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
    // Ended the moment the restart began: it was in flight at that moment too.
    const touching = b.post('plan', { at: 90, took: 10, body: shopDbFinal() });
    b.read(RESTART_ID, { at: 300, suite: SITUATION_SUITES.restart, status: 404, body: {} });
    b.pollEnded(RESTART_ID, restartPost.seq, 'lost', 306);
    const after = b.post('plan', { at: 201, body: shopDbFinal() });
    return { b, before: before.seq, restartPost: restartPost.seq, during: during.seq, after: after.seq, touching: touching.seq };
  }

  it('shows durability the whole run', () => {
    const { b } = restarted();
    expect(seenBy(new SituationViews(b.transcript), 'durability.survives-restart')).toBe(b.transcript);
  });

  it('shows every other rule the run without the restart suite and without what was in flight while it restarted', () => {
    const { b, before, after } = restarted();
    const views = new SituationViews(b.transcript);
    for (const id of ['answer.status', 'answer.prompt', ...EVERYDAY_RULES]) {
      const view = seenBy(views, id);
      expect(seqs(view)).toEqual([before, before + 1, after]);
      // The poll-ended event of the restart suite's 202 goes with it; the everyday one and the restart itself stay.
      expect(view.events.map((e) => e.type)).toEqual(['poll-ended', 'restart-started', 'restart-ended']);
      expect(view.events[0]).toMatchObject({ acceptedSeq: before });
    }
  });

  it('sets the restart suite apart even when the restart was skipped', () => {
    const b = new TranscriptBuilder();
    const everyday = b.post('plan', { at: 0, body: shopDbFinal() });
    b.post('apply', { at: 50, suite: SITUATION_SUITES.restart, status: 503, body: {} });
    b.transcript.note({ type: 'restart-skipped', at: T0 + 60, message: 'skipped' });
    const view = seenBy(new SituationViews(b.transcript), 'answer.status');
    expect(seqs(view)).toEqual([everyday.seq]);
    expect(view.events).toEqual(b.transcript.events);
  });

  it('sets apart what was in flight during a restart even with no restart suite exchange', () => {
    const b = new TranscriptBuilder();
    const kept = b.post('plan', { at: 0, body: shopDbFinal() });
    b.restart(100, 200);
    b.post('plan', { at: 200, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
    expect(seqs(seenBy(new SituationViews(b.transcript), 'operation.not-lost'))).toEqual([kept.seq]);
  });
});

describe('SituationViews: around a burst and a repeat', () => {
  function burstAndRepeat(): { b: TranscriptBuilder; all: Record<string, number> } {
    const b = new TranscriptBuilder();
    const plan = b.post('plan', { at: 0, body: shopDbFinal() });
    const burstPlan = b.post('plan', { at: 100, took: 100, suite: BURST, status: 202, body: { operationId: ID } });
    const burstRead = b.read(ID, { at: 300, suite: BURST, body: IN_PROGRESS });
    const overloaded = b.post('apply', { at: 150, status: 429, body: {} });
    const refusedDuring = b.post('apply', { at: 150, status: 409, body: {} });
    const overloadedAfter = b.post('apply', { at: 400, status: 503, body: {} });
    const repeat = b.post('apply', { at: 500, suite: SITUATION_SUITES.repeatApply, repeatOf: plan.seq, status: 409, body: {} });
    const probe = b.badInput('plan', { at: 150, status: 500, body: {} });
    return { b, all: { plan: plan.seq, burstPlan: burstPlan.seq, burstRead: burstRead.seq, overloaded: overloaded.seq, refusedDuring: refusedDuring.seq, overloadedAfter: overloadedAfter.seq, repeat: repeat.seq, probe: probe.seq } };
  }

  it('shows answer.status no burst POST, no repeat, no POST overloaded by the burst, and every read and other POST', () => {
    const { b, all } = burstAndRepeat();
    expect(seqs(seenBy(new SituationViews(b.transcript), 'answer.status'))).toEqual([all.plan, all.burstRead, all.refusedDuring, all.overloadedAfter, all.probe]);
  });

  it('shows answer.prompt every exchange but the burst POSTs', () => {
    const { b, all } = burstAndRepeat();
    expect(seqs(seenBy(new SituationViews(b.transcript), 'answer.prompt'))).toEqual([
      all.plan,
      all.burstRead,
      all.overloaded,
      all.refusedDuring,
      all.overloadedAfter,
      all.repeat,
      all.probe,
    ]);
  });

  it('shows the repeat rules every exchange but the POSTs the burst overloaded', () => {
    const { b, all } = burstAndRepeat();
    const views = new SituationViews(b.transcript);
    const expected = [all.plan, all.burstPlan, all.burstRead, all.refusedDuring, all.overloadedAfter, all.repeat, all.probe];
    for (const id of ['apply.idempotent', 'apply.repeat-while-running', 'plan.repeatable']) expect(seqs(seenBy(views, id))).toEqual(expected);
  });

  it('shows every other rule the whole run when nothing restarted', () => {
    const { b } = burstAndRepeat();
    const views = new SituationViews(b.transcript);
    for (const id of ['durability.survives-restart', ...EVERYDAY_RULES.filter((id) => id !== 'apply.idempotent')]) expect(seenBy(views, id)).toBe(b.transcript);
  });

  it('keeps the events with the exchanges it keeps', () => {
    const { b } = burstAndRepeat();
    b.pollEnded(ID, 2, 'aborted', 600);
    expect(seenBy(new SituationViews(b.transcript), 'answer.status').events).toEqual(b.transcript.events);
  });
});

describe('the situations of a transcript', () => {
  it('pairs each restart start with the end that follows it, and leaves one that never ended open', () => {
    const b = new TranscriptBuilder();
    b.restart(100, 200);
    b.restart(300, 400, false);
    b.transcript.note({ type: 'restart-ended', at: T0 + 450, ok: true, message: 'stray' });
    b.transcript.note({ type: 'restart-started', at: T0 + 500, describe: 'again' });
    expect(restartWindows(b.transcript)).toEqual([
      { startedAt: T0 + 100, endedAt: T0 + 200, ok: true, describe: 'restart command: ./restart.sh', message: 'done' },
      { startedAt: T0 + 300, endedAt: T0 + 400, ok: false, describe: 'restart command: ./restart.sh', message: 'exited with code 1' },
      { startedAt: T0 + 500, endedAt: Number.POSITIVE_INFINITY, ok: false, describe: 'again' },
    ]);
    expect(restartWindows(new TranscriptBuilder().transcript)).toEqual([]);
  });

  it('ends a restart window only at a restart-ended event, not at other events in between', () => {
    const b = new TranscriptBuilder();
    b.transcript.note({ type: 'restart-started', at: T0 + 100, describe: 'restart command: ./restart.sh' });
    b.pollEnded(ID, 1, 'aborted', 150);
    b.transcript.note({ type: 'restart-skipped', at: T0 + 160, message: 'skipped' });
    b.transcript.note({ type: 'restart-ended', at: T0 + 200, ok: true, message: 'done' });
    expect(restartWindows(b.transcript)).toEqual([{ startedAt: T0 + 100, endedAt: T0 + 200, ok: true, describe: 'restart command: ./restart.sh', message: 'done' }]);
  });

  it('takes an exchange that touches a window at either end as in flight during it', () => {
    const b = new TranscriptBuilder();
    const window = { startedAt: T0 + 100, endedAt: T0 + 200 };
    expect(overlaps(b.post('plan', { at: 90, took: 10 }), window)).toBe(true);
    expect(overlaps(b.post('plan', { at: 89, took: 10 }), window)).toBe(false);
    expect(overlaps(b.post('plan', { at: 200, took: 10 }), window)).toBe(true);
    expect(overlaps(b.post('plan', { at: 201, took: 10 }), window)).toBe(false);
    expect(overlaps(b.post('plan', { at: 0, took: 500 }), window)).toBe(true);
  });

  it('spans the burst from its first send to its last end, reads included', () => {
    const b = new TranscriptBuilder();
    expect(burstWindow(b.transcript)).toBeUndefined();
    b.post('plan', { at: 0, took: 1000 });
    b.post('plan', { at: 200, took: 10, suite: BURST });
    b.post('plan', { at: 100, took: 10, suite: BURST });
    b.read(ID, { at: 300, took: 50, suite: BURST });
    expect(burstWindow(b.transcript)).toMatchObject({ startedAt: T0 + 100, endedAt: T0 + 350 });
  });

  it('knows the kinds of call the provisioner answered 200 or 202 at least once, in the burst or not', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 100, took: 100, suite: BURST, status: 503, body: {} });
    b.post('apply', { at: 0, took: 10, status: 202, body: { operationId: ID } });
    b.post('plan', { at: 400, took: 10, status: 503, body: {} });
    b.read(ID, { at: 500, took: 10 });
    expect([...burstWindow(b.transcript)!.answeredKinds]).toEqual(['apply']);
    const plans = new TranscriptBuilder();
    plans.post('plan', { at: 100, took: 100, suite: BURST });
    plans.post('apply', { at: 150, took: 10, status: 500, body: {} });
    expect([...burstWindow(plans.transcript)!.answeredKinds]).toEqual(['plan']);
  });

  it('takes 429, 5xx and failed connections as overload, and neither a stopped call nor a 4xx', () => {
    const b = new TranscriptBuilder();
    expect(isOverloadAnswer(b.post('plan', { status: 429 }))).toBe(true);
    expect(isOverloadAnswer(b.post('plan', { status: 500 }))).toBe(true);
    expect(isOverloadAnswer(b.post('plan', { status: 499 }))).toBe(false);
    expect(isOverloadAnswer(b.post('plan', { status: 428 }))).toBe(false);
    expect(isOverloadAnswer(b.post('plan', { status: 200 }))).toBe(false);
    expect(isOverloadAnswer(b.post('plan', { error: { kind: 'refused', message: 'no' } }))).toBe(true);
    expect(isOverloadAnswer(b.post('plan', { error: { kind: 'stopped', message: 'run stopped' } }))).toBe(false);
  });

  it('blames the burst for an overload answer only to a plan or apply of another suite in flight with it', () => {
    const b = new TranscriptBuilder();
    const window = { startedAt: T0 + 100, endedAt: T0 + 200, answeredKinds: new Set(['plan', 'apply']) };
    expect(overloadedByBurst(b.post('apply', { at: 150, status: 503 }), window)).toBe(true);
    expect(overloadedByBurst(b.post('plan', { at: 150, status: 429 }), window)).toBe(true);
    expect(overloadedByBurst(b.post('plan', { at: 150, status: 503 }), undefined)).toBe(false);
    expect(overloadedByBurst(b.post('plan', { at: 150, status: 503, suite: BURST }), window)).toBe(false);
    expect(overloadedByBurst(b.read(ID, { at: 150, status: 503 }), window)).toBe(false);
    expect(overloadedByBurst(b.badInput('plan', { at: 150, status: 503 }), window)).toBe(false);
    expect(overloadedByBurst(b.post('plan', { at: 300, status: 503 }), window)).toBe(false);
    expect(overloadedByBurst(b.post('plan', { at: 150, status: 409 }), window)).toBe(false);
    // A kind never answered 200 or 202 fails without load too: a 500 or a reset is not the burst's, a 429 or 503 still is.
    const appliesNever = { ...window, answeredKinds: new Set(['plan']) };
    expect(overloadedByBurst(b.post('apply', { at: 150, status: 500 }), appliesNever)).toBe(false);
    expect(overloadedByBurst(b.post('apply', { at: 150, error: { kind: 'reset', message: 'socket hang up' } }), appliesNever)).toBe(false);
    expect(overloadedByBurst(b.post('apply', { at: 150, status: 503 }), appliesNever)).toBe(true);
    expect(overloadedByBurst(b.post('apply', { at: 150, status: 429 }), appliesNever)).toBe(true);
    expect(overloadedByBurst(b.post('plan', { at: 150, status: 500 }), appliesNever)).toBe(true);
  });
});

describe("the kit's load on the provisioner", () => {
  it('counts work that began as an exchange ended, or ended as it began, as in flight with it', () => {
    const b = new TranscriptBuilder();
    const exchange = b.post('plan', { at: 100, took: 100, body: shopDbFinal() });
    const endedAsItBegan = b.post('plan', { at: 50, took: 50, body: shopDbFinal() });
    expect(new KitLoad(b.transcript).besides(exchange)).toBe(1);
    b.post('plan', { at: 200, took: 5, body: shopDbFinal() });
    expect(new KitLoad(b.transcript).besides(exchange)).toBe(2);
    b.post('plan', { at: 201, took: 5, body: shopDbFinal() });
    b.post('plan', { at: 40, took: 59, body: shopDbFinal() });
    expect(new KitLoad(b.transcript).besides(exchange)).toBe(2);
    expect(new KitLoad(b.transcript).besides(endedAsItBegan)).toBe(2);
  });

  it('holds an operation that never ended until its last read', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: ID } });
    b.read(ID, { at: 100, body: IN_PROGRESS });
    b.read(ID, { at: 200, body: IN_PROGRESS });
    b.read(ID, { at: 300, body: IN_PROGRESS });
    const late = b.post('plan', { at: 290, took: 5, body: shopDbFinal() });
    expect(new KitLoad(b.transcript).besides(late)).toBe(1);
  });
});

describe('answers that say the provisioner is too busy', () => {
  it('are a 429 or 503 that came back whole', () => {
    const b = new TranscriptBuilder();
    const busy = b.post('plan', { status: 503, body: {} });
    expect(isBusyAnswer(busy)).toBe(true);
    expect(isBusyAnswer(b.post('plan', { status: 429, body: {} }))).toBe(true);
    expect(isBusyAnswer(b.post('plan', { status: 500, body: {} }))).toBe(false);
    expect(isBusyAnswer(b.post('plan', { error: { kind: 'reset', message: 'socket hang up' } }))).toBe(false);
    // A 503 whose body was cut short: what came back is the transport error.
    expect(isBusyAnswer({ ...busy, error: { kind: 'reset', message: 'socket hang up' } })).toBe(false);
    const { response: _response, ...neither } = busy;
    expect(isBusyAnswer(neither)).toBe(false);
  });
});

describe('how the following of each operation ended', () => {
  it('is read from the poll-ended events alone', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: ID } });
    b.restart(100, 200);
    b.pollEnded(ID, 1, 'final', 300);
    expect(pollEnds(b.transcript).map((e) => `${e.acceptedSeq}:${e.reason}`)).toEqual(['1:final']);
  });
});
