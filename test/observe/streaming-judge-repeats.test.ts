import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChangeSetRepeats, type FollowedCall } from '../../src/observe/change-set-repeats.js';
import { seenChangeSet } from '../../src/observe/seen-change-set.js';
import type { Exchange, TranscriptEvent } from '../../src/transcript/exchange.js';
import { IN_PROGRESS, shopDbFinal, T0, TranscriptBuilder } from '../support/transcript-builder.js';

const SHOP_DB_SET = JSON.stringify({ kind: 'managed-resource', type: 'postgres', changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] });

interface Judged {
  exchanges: { seq: number; repeatOf?: number }[];
  events: string[];
  changeSet: string;
}

function follow(): { repeats: ChangeSetRepeats; judged: Judged[] } {
  const judged: Judged[] = [];
  const repeats = new ChangeSetRepeats((exchanges, events, changeSet) =>
    judged.push({ exchanges: exchanges.map((e) => ({ seq: e.seq, ...(e.repeatOf !== undefined && { repeatOf: e.repeatOf }) })), events: events.map(eventOf), changeSet: changeSet.name }),
  );
  return { repeats, judged };
}

function eventOf(event: TranscriptEvent): string {
  return event.type === 'poll-ended' ? `${event.operationId} ${event.reason}` : event.type;
}

function ended(operationId: string, reason: 'final' | 'lost' = 'final'): TranscriptEvent[] {
  return [{ type: 'poll-ended', at: T0, operationId, reason, acceptedSeq: 0, conclusion: reason }];
}

/** An accepted call of `body` sent at `at`; its reads come later. */
function accepted(b: TranscriptBuilder, kind: 'plan' | 'apply', at: number, body = SHOP_DB_SET): FollowedCall & { id: string; reads: Exchange[] } {
  const id = randomUUID();
  return { id, post: b.post(kind, { at, status: 202, body: { operationId: id }, requestBody: body }), changeSet: seenChangeSet(body, '/changes'), reads: [] };
}

/** The call with its reads, as the streaming judge follows it: the same call, its reads added as they come. */
function withReads<T extends FollowedCall & { reads: Exchange[] }>(call: T, ...reads: Exchange[]): T {
  call.reads.push(...reads);
  return call;
}

describe('the observer pairs a change set sent again with the call it repeats', () => {
  it('judges a call sent once the first had its final answer with that answer, when it ends', () => {
    const { repeats, judged } = follow();
    const b = new TranscriptBuilder();
    const first = accepted(b, 'apply', 0);
    expect(repeats.sent(first)).toBeUndefined();
    const final = b.read(first.id, { at: 10, body: shopDbFinal() });
    repeats.ended(withReads(first, final), ended(first.id), final);
    expect(judged).toEqual([]);
    // Sent within a millisecond of the final answer's end: after it.
    const again = accepted(b, 'apply', final.endedAt - T0 - 1);
    expect(repeats.sent(again)).toBe(first.post.seq);
    const last = b.read(again.id, { at: 40, body: shopDbFinal() });
    repeats.ended(withReads(again, last), ended(again.id), last);
    expect(judged).toEqual([{ exchanges: [{ seq: 1 }, { seq: 2 }, { seq: 3, repeatOf: 1 }, { seq: 4 }], events: [`${again.id} final`], changeSet: first.changeSet.name }]);
  });

  it('judges a call sent while the first ran with all of the first, once both ended, in the order of the traffic', () => {
    const { repeats, judged } = follow();
    const b = new TranscriptBuilder();
    const first = accepted(b, 'apply', 0);
    repeats.sent(first);
    const again = accepted(b, 'apply', 3);
    expect(repeats.sent(again)).toBe(first.post.seq);
    const read = b.read(first.id, { at: 10, body: IN_PROGRESS });
    const againFinal = b.read(again.id, { at: 12, body: shopDbFinal() });
    repeats.ended(withReads(again, againFinal), ended(again.id), againFinal);
    expect(judged).toEqual([]);
    const firstFinal = b.read(first.id, { at: 20, body: shopDbFinal() });
    repeats.ended(withReads(first, read, firstFinal), ended(first.id), firstFinal);
    expect(judged).toEqual([
      {
        exchanges: [{ seq: 1 }, { seq: 2, repeatOf: 1 }, { seq: 3 }, { seq: 4 }, { seq: 5 }],
        events: [`${first.id} final`, `${again.id} final`],
        changeSet: first.changeSet.name,
      },
    ]);
  });

  it('pairs only the first call sent while the first ran: a third is an everyday call', () => {
    const { repeats } = follow();
    const b = new TranscriptBuilder();
    const first = accepted(b, 'apply', 0);
    repeats.sent(first);
    expect(repeats.sent(accepted(b, 'apply', 2))).toBe(first.post.seq);
    expect(repeats.sent(accepted(b, 'apply', 4))).toBeUndefined();
  });

  it('holds a plan and an apply of the same bytes, or two bodies, apart', () => {
    const { repeats } = follow();
    const b = new TranscriptBuilder();
    repeats.sent(accepted(b, 'plan', 0));
    expect(repeats.sent(accepted(b, 'apply', 1))).toBeUndefined();
    expect(repeats.sent(accepted(b, 'apply', 2, JSON.stringify({ changes: [{ id: 'cache', environment: 'test', action: 'created' }] })))).toBeUndefined();
    expect(repeats.sent(accepted(b, 'plan', 3))).toBe(1);
  });

  it('holds a later call to the first call that ended in a final answer, not to a repeat that ended sooner', () => {
    const { repeats, judged } = follow();
    const b = new TranscriptBuilder();
    const first = accepted(b, 'apply', 0);
    repeats.sent(first);
    const refused = { post: b.post('apply', { at: 2, status: 200, body: shopDbFinal('failed'), requestBody: SHOP_DB_SET }), changeSet: first.changeSet, reads: [] };
    expect(repeats.sent(refused)).toBe(1);
    repeats.ended(refused, [], refused.post);
    const final = b.read(first.id, { at: 10, body: shopDbFinal() });
    repeats.ended(withReads(first, final), ended(first.id), final);
    expect(judged).toHaveLength(1);
    const late = accepted(b, 'apply', 100);
    expect(repeats.sent(late)).toBe(first.post.seq);
  });

  it('holds no repeat to a first call that ended without a final answer', () => {
    const { repeats, judged } = follow();
    const b = new TranscriptBuilder();
    const first = accepted(b, 'apply', 0);
    repeats.sent(first);
    const lost = b.read(first.id, { at: 10, status: 404, body: { error: 'unknown operation' } });
    repeats.ended(withReads(first, lost), ended(first.id, 'lost'), undefined);
    const again = accepted(b, 'apply', 100);
    expect(repeats.sent(again)).toBeUndefined();
    const final = b.read(again.id, { at: 110, body: shopDbFinal() });
    repeats.ended(withReads(again, final), ended(again.id), final);
    expect(judged).toEqual([]);
    // That one ended in a final answer: the next is held to it.
    expect(repeats.sent(accepted(b, 'apply', 200))).toBe(again.post.seq);
  });

  it('holds a call to a first answered at once, its answer the final one', () => {
    const { repeats, judged } = follow();
    const b = new TranscriptBuilder();
    const first = { post: b.post('plan', { at: 0, status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }), changeSet: seenChangeSet(SHOP_DB_SET, '/changes'), reads: [] };
    repeats.sent(first);
    repeats.ended(first, [], first.post);
    const again = { post: b.post('plan', { at: 20, status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }), changeSet: first.changeSet, reads: [] };
    expect(repeats.sent(again)).toBe(1);
    repeats.ended(again, [], again.post);
    expect(judged).toEqual([{ exchanges: [{ seq: 1 }, { seq: 2, repeatOf: 1 }], events: [], changeSet: first.changeSet.name }]);
  });

  it('keeps the first end of one change set only: a later end does not replace it', () => {
    const { repeats, judged } = follow();
    const b = new TranscriptBuilder();
    const at = (t: number) => ({ post: b.post('plan', { at: t, status: 200, body: shopDbFinal(), requestBody: SHOP_DB_SET }), changeSet: seenChangeSet(SHOP_DB_SET, '/changes'), reads: [] });
    const first = at(0);
    repeats.sent(first);
    repeats.ended(first, [], first.post);
    const second = at(20);
    repeats.sent(second);
    repeats.ended(second, [], second.post);
    const third = at(40);
    expect(repeats.sent(third)).toBe(1);
    repeats.ended(third, [], third.post);
    expect(judged.map((j) => j.exchanges)).toEqual([
      [{ seq: 1 }, { seq: 2, repeatOf: 1 }],
      [{ seq: 1 }, { seq: 3, repeatOf: 1 }],
    ]);
  });

  it('remembers the first end of the latest 256 change sets: a repeat of an older one is an everyday call', () => {
    const { repeats } = follow();
    const b = new TranscriptBuilder();
    const bodies = Array.from({ length: 257 }, (_, i) => JSON.stringify({ changes: [{ id: `db-${i}`, environment: 'test', action: 'created' }] }));
    for (const body of bodies) {
      const call = { post: b.post('plan', { status: 200, body: shopDbFinal(), requestBody: body }), changeSet: seenChangeSet(body, '/changes'), reads: [] };
      repeats.sent(call);
      repeats.ended(call, [], call.post);
    }
    const again = (body: string) => ({ post: b.post('plan', { status: 200, body: shopDbFinal(), requestBody: body }), changeSet: seenChangeSet(body, '/changes'), reads: [] });
    expect(repeats.sent(again(bodies[0]!))).toBeUndefined();
    expect(repeats.sent(again(bodies[1]!))).toBe(2);
    expect(repeats.sent(again(bodies[256]!))).toBe(257);
  });
});
