import { describe, expect, it } from 'vitest';
import { sortBadBodySends } from '../../src/rules/support/bad-body-sends.js';
import { insistedOn } from '../../src/rules/support/unanswered-ids.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { OP_ID, TranscriptBuilder, context } from '../support/transcript-builder.js';

/** Bad bodies whose 5xx is no answer: sent again, and silent for good only against calls answered meanwhile. */

const label = (send: Exchange): string => `POST with ${send.request.body ?? ''}`;

function sends(b: TranscriptBuilder, suite: string, answers: Array<{ at: number; status: number }>, body = '{'): Exchange[] {
  return answers.map(({ at, status }) => b.badInput('plan', { at, status, body: '', requestBody: body, suite }, 'malformed-json'));
}

function sorted(b: TranscriptBuilder): ReturnType<typeof sortBadBodySends> {
  const probes = b.transcript.exchanges.filter((e) => e.tag === 'malformed-json');
  return sortBadBodySends(b.transcript, context(), probes, label);
}

describe('bad-input sends sorted by what a 5xx means', () => {
  it('judges a body by its answered sends once one was answered, however many 5xx came before', () => {
    const b = new TranscriptBuilder();
    const tries = sends(b, 'case#1', [
      { at: 0, status: 503 },
      { at: 1000, status: 503 },
      { at: 2000, status: 400 },
    ]);
    b.read(OP_ID, { at: 1000, status: 404, body: {}, tag: 'read-unknown', suite: 'case#1' });
    expect(sorted(b)).toMatchObject({ answered: [tries[2]], silent: [], transient: 2 });
  });

  it('keeps the sends of two cases apart, even of the same body', () => {
    const b = new TranscriptBuilder();
    sends(b, 'case#1', [{ at: 0, status: 500 }, { at: 1000, status: 500 }]);
    sends(b, 'case#2', [{ at: 2000, status: 500 }]);
    b.read(OP_ID, { at: 1000, status: 404, body: {}, tag: 'read-unknown' });
    // Three sends of one body over two seconds, but by two cases: neither insisted.
    expect(sorted(b)).toMatchObject({ silent: [], unjudged: 'no body was sent 3 times over two poll intervals, so the failures may have been passing' });
  });

  it('says nothing shows the provisioner answers any call when no other call was made meanwhile', () => {
    const b = new TranscriptBuilder();
    sends(b, 'case#1', [
      { at: 0, status: 500 },
      { at: 1000, status: 500 },
      { at: 2000, status: 500 },
    ]);
    b.read(OP_ID, { at: 9000, status: 404, body: {}, tag: 'read-unknown' });
    expect(sorted(b)).toMatchObject({ silent: [], unjudged: 'no other call was made meanwhile: nothing shows the provisioner answers any call' });
  });

  it('says the provisioner looked down when every other call made meanwhile failed too, even after a body with no call beside it', () => {
    const b = new TranscriptBuilder();
    sends(b, 'case#1', [{ at: 0, status: 500 }, { at: 1000, status: 500 }, { at: 2000, status: 500 }]);
    sends(b, 'case#2', [{ at: 5000, status: 502 }, { at: 6000, status: 502 }, { at: 7000, status: 502 }], '[');
    b.read(OP_ID, { at: 6000, status: 503, body: '' });
    expect(sorted(b)).toMatchObject({
      silent: [],
      unjudged: 'so did every other call made meanwhile: the provisioner looked down, which says nothing about the bodies',
    });
  });

  it('finds a body silent for good against one answered call made meanwhile, naming the body', () => {
    const b = new TranscriptBuilder();
    const tries = sends(b, 'case#1', [{ at: 0, status: 500 }, { at: 1000, status: 500 }, { at: 2000, status: 500 }]);
    const other = b.read(OP_ID, { at: 1500, status: 404, body: {}, tag: 'read-unknown' });
    expect(sorted(b).silent).toEqual([
      { note: 'POST with { answered 500 (3 sends over 2.0s), while 1 other call made meanwhile answered 404', exchanges: [...tries.map((t) => t.seq), other.seq] },
    ]);
  });
});

describe('insisting on an id or a body', () => {
  it('takes three tries spread over two poll intervals (with a little slack for early timers), and no fewer', () => {
    const b = new TranscriptBuilder();
    const at = (...times: number[]): Exchange[] => times.map((t) => b.read(OP_ID, { at: t, status: 500, body: '' }));
    expect(insistedOn(at(0, 900, 1800), 1000)).toBe(true);
    expect(insistedOn(at(0, 900, 1799), 1000)).toBe(false);
    expect(insistedOn(at(0, 5000), 1000)).toBe(false);
  });
});
