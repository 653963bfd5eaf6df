import { describe, expect, it } from 'vitest';
import { deadlineFinding, timerSlackMs, type DeadlineFinding } from '../../src/rules/support/deadline-evidence.js';
import type { TranscriptEvent } from '../../src/transcript/exchange.js';
import { operations } from '../../src/transcript/views.js';
import { IN_PROGRESS, OP_ID, T0, shopDbFinal, type TranscriptBuilder } from '../support/transcript-builder.js';
import { accepted } from './operation-fixtures.js';

/**
 * What the reads of one operation prove about its deadline. The 202 ends at 5 ms; with PT2S the deadline is at
 * 2005 ms; the poll interval is 1 s, so a reader keeps reading when its last read before the deadline was sent
 * at 755 ms or later (a poll interval and 250 ms of timer slack).
 */
const PT2S = { ms: 2000, text: 'PT2S' };
const POLL_MS = 1000;
const DEADLINE_AT = 2005;

function findingOf(b: TranscriptBuilder, ended?: 'deadline' | 'aborted'): DeadlineFinding {
  const op = operations(b.transcript)[0]!;
  const end: Extract<TranscriptEvent, { type: 'poll-ended' }> | undefined = ended && {
    type: 'poll-ended',
    at: T0 + DEADLINE_AT,
    operationId: OP_ID,
    reason: ended,
    acceptedSeq: 1,
    conclusion: ended,
  };
  return deadlineFinding(op, end, PT2S, POLL_MS);
}

function noteOf(finding: DeadlineFinding): string {
  if (finding.kind !== 'late' && finding.kind !== 'unknown') throw new Error(`expected a note, got ${finding.kind}`);
  return finding.note;
}

describe('timer slack', () => {
  it('is 250 ms, or a tenth of a longer poll interval', () => {
    expect(timerSlackMs(1000)).toBe(250);
    expect(timerSlackMs(2500)).toBe(250);
    expect(timerSlackMs(5000)).toBe(500);
  });
});

describe('what the reads prove about the deadline', () => {
  it('proves nothing while no read went past the deadline and the following did not end there', () => {
    const b = accepted();
    b.read(OP_ID, { at: 1000, body: IN_PROGRESS });
    b.read(OP_ID, { at: DEADLINE_AT, body: IN_PROGRESS });
    expect(findingOf(b)).toEqual({ kind: 'unjudged' });
    expect(findingOf(b, 'aborted')).toEqual({ kind: 'unjudged' });
  });

  it('counts a read sent at the deadline as before it, and one sent after it as past it', () => {
    const atDeadline = accepted();
    atDeadline.read(OP_ID, { at: 1000, body: IN_PROGRESS });
    const last = atDeadline.read(OP_ID, { at: DEADLINE_AT, body: IN_PROGRESS });
    expect(findingOf(atDeadline, 'deadline')).toEqual({
      kind: 'late',
      note: 'no final answer within PT2S of the 202: reads went on up to the deadline and none got one; the last read before it, sent 2.0s after the 202, answered in_progress',
      exchanges: [last, atDeadline.transcript.exchanges[0]],
    });
    const past = accepted();
    past.read(OP_ID, { at: 1000, body: IN_PROGRESS });
    const after = past.read(OP_ID, { at: DEADLINE_AT + 1, body: IN_PROGRESS });
    expect(findingOf(past)).toMatchObject({
      kind: 'late',
      note: 'a read sent 2.0s after the 202, past the deadline of PT2S, answered in_progress: the work had not ended by the deadline',
      exchanges: [after, past.transcript.exchanges[0]],
    });
  });

  it('takes only a 200 saying in_progress past the deadline as proof the work went on', () => {
    const b = accepted();
    b.read(OP_ID, { at: 100, body: IN_PROGRESS });
    b.read(OP_ID, { at: DEADLINE_AT + 100, error: { kind: 'timeout', message: 'no answer' } });
    b.read(OP_ID, { at: DEADLINE_AT + 200, status: 503, body: IN_PROGRESS });
    // Past the deadline by those reads, but the last read before it was sent 1.9 s before: a gap, not proof.
    expect(noteOf(findingOf(b))).toBe(
      'no final answer came, but the last read before the deadline was sent 95ms after the 202, more than a poll interval before it: whether the work would have ended in time is not known',
    );
  });

  it('keeps reading exactly when the last read before the deadline came a poll interval and the slack before it', () => {
    const kept = accepted();
    kept.read(OP_ID, { at: DEADLINE_AT - POLL_MS - 250, body: IN_PROGRESS });
    expect(findingOf(kept, 'deadline')).toMatchObject({ kind: 'late' });
    const gap = accepted();
    gap.read(OP_ID, { at: DEADLINE_AT - POLL_MS - 251, body: IN_PROGRESS });
    expect(findingOf(gap, 'deadline')).toMatchObject({ kind: 'unknown' });
  });

  it('tells what the last read before the deadline got: its outcome only when answered 200 with one', () => {
    const cases: Array<[Parameters<TranscriptBuilder['read']>[1], string]> = [
      [{ status: 503, body: IN_PROGRESS }, 'answered 503'],
      [{ status: 200, body: { message: 'busy' } }, 'answered 200'],
      [{ error: { kind: 'timeout', message: 'no answer' }, took: 10_000 }, 'timed out after 10.0s'],
    ];
    for (const [answer, said] of cases) {
      const b = accepted();
      b.read(OP_ID, { at: 1500, ...answer });
      expect(noteOf(findingOf(b, 'deadline'))).toBe(
        `no final answer within PT2S of the 202: reads went on up to the deadline and none got one; the last read before it, sent 1.5s after the 202, ${said}`,
      );
    }
  });

  it('holds a final answer sent by the deadline, and names the gap a late final answer fell after', () => {
    const within = accepted();
    within.read(OP_ID, { at: DEADLINE_AT, body: shopDbFinal() });
    expect(findingOf(within)).toEqual({ kind: 'within', tookMs: 2000 });
    const afterNothing = accepted();
    afterNothing.read(OP_ID, { at: 3000, body: shopDbFinal() });
    expect(noteOf(findingOf(afterNothing))).toBe(
      'its work ended between the 202 and the read sent 3.0s after it, which got the final answer; the deadline of PT2S fell in that gap, when nobody read it, so whether the work ended in time is not known',
    );
    const afterRead = accepted();
    afterRead.read(OP_ID, { at: 500, status: 502, body: 'Bad Gateway', contentType: 'text/html' });
    afterRead.read(OP_ID, { at: 3000, body: shopDbFinal() });
    expect(noteOf(findingOf(afterRead))).toBe(
      'its work ended between the read sent 495ms after the 202 (which was answered 502 by a proxy in front of the provisioner after 5ms) and the read sent 3.0s after it, which got the final answer; the deadline of PT2S fell in that gap, when nobody read it, so whether the work ended in time is not known',
    );
  });
});
