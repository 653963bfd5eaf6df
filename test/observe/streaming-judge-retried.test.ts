import { describe, expect, it } from 'vitest';
import { RetriedSends } from '../../src/observe/retried-sends.js';
import { ruleIdsJudging } from '../../src/rules/index.js';
import type { Exchange, ExchangeTag } from '../../src/transcript/exchange.js';
import { IN_PROGRESS, OP_ID, shopDbFinal, TranscriptBuilder } from '../support/transcript-builder.js';

const POLL = 10_000;

/** What the silence judge was handed: the seqs of each slice, and the rules it was to judge it by. */
function follow(): { retried: RetriedSends; judged: { seqs: number[]; rules: readonly string[] }[] } {
  const judged: { seqs: number[]; rules: readonly string[] }[] = [];
  return { retried: new RetriedSends(POLL, (exchanges, rules) => judged.push({ seqs: exchanges.map((e) => e.seq), rules })), judged };
}

function bad(b: TranscriptBuilder, at: number, status: number, tag: 'malformed-json' | 'invalid-change-set' = 'invalid-change-set', kind: 'plan' | 'apply' = 'apply', requestBody = '{"changes": []}'): Exchange {
  return b.badInput(kind, { at, status, body: status >= 500 ? 'boom' : { error: 'bad' }, contentType: status >= 500 ? 'text/plain' : 'application/json', requestBody }, tag);
}

function silentRead(b: TranscriptBuilder, id: string, at: number, tag: ExchangeTag): Exchange {
  return b.read(id, { at, status: 503, body: 'busy', contentType: 'text/plain', tag });
}

describe('the observer follows a bad body or an id that gets nothing but 5xx', () => {
  it('judges a body sent three times over two poll intervals with a call answered meanwhile, by the bad-input rules', () => {
    const { retried, judged } = follow();
    const b = new TranscriptBuilder();
    retried.sent(bad(b, 0, 500));
    retried.answered([b.post('plan', { at: 10, body: shopDbFinal() })], false);
    retried.answered([b.post('plan', { at: 20, body: shopDbFinal() })], false);
    retried.sent(bad(b, POLL, 500));
    expect(judged).toEqual([]);
    retried.sent(bad(b, 2 * POLL * 0.9, 502));
    expect(judged).toEqual([{ seqs: [1, 2, 4, 5], rules: ruleIdsJudging('bad-input') }]);
  });

  it('waits for the tries to span two poll intervals, less a tenth, and for the third of them', () => {
    const { retried, judged } = follow();
    const b = new TranscriptBuilder();
    retried.sent(bad(b, 0, 500));
    retried.sent(bad(b, 2 * POLL, 500));
    expect(judged).toEqual([]);
    const close = follow();
    const c = new TranscriptBuilder();
    for (const at of [0, 10, 2 * POLL * 0.9 - 1]) close.retried.sent(bad(c, at, 500));
    expect(close.judged).toEqual([]);
    close.retried.sent(bad(c, 2 * POLL * 0.9 - 1, 500));
    expect(close.judged).toEqual([]);
  });

  it('follows each body to each path on its own, and starts again when one is answered below 500', () => {
    const { retried, judged } = follow();
    const b = new TranscriptBuilder();
    retried.sent(bad(b, 0, 500, 'invalid-change-set', 'apply'));
    retried.sent(bad(b, 1, 500, 'invalid-change-set', 'plan'));
    retried.sent(bad(b, 2, 500, 'invalid-change-set', 'apply', '{"changes": 1}'));
    retried.sent(bad(b, POLL, 500, 'invalid-change-set', 'apply'));
    retried.sent(bad(b, POLL + 1, 400, 'invalid-change-set', 'plan'));
    retried.sent(bad(b, 2 * POLL, 500, 'invalid-change-set', 'apply'));
    retried.sent(bad(b, 2 * POLL + 1, 500, 'invalid-change-set', 'plan'));
    retried.sent(bad(b, 2 * POLL + 2, 500, 'invalid-change-set', 'apply', '{"changes": 1}'));
    expect(judged).toEqual([{ seqs: [1, 4, 6], rules: ruleIdsJudging('bad-input') }]);
  });

  it('tells a body that is not JSON from one that is no change set, each by its own situation', () => {
    const { retried, judged } = follow();
    const b = new TranscriptBuilder();
    for (const at of [0, POLL, 2 * POLL]) retried.sent(bad(b, at, 500, 'malformed-json', 'plan', '{'));
    expect(judged).toEqual([{ seqs: [1, 2, 3], rules: ruleIdsJudging('bad-input') }]);
  });

  it('judges the reads of one id with a read of a known operation answered meanwhile, and not with a call', () => {
    for (const [tag, situation] of [
      ['read-malformed', 'malformed-id'],
      ['read-unknown', 'unknown-id'],
    ] as const) {
      const { retried, judged } = follow();
      const b = new TranscriptBuilder();
      retried.sent(silentRead(b, 'x', 0, tag));
      retried.answered([b.post('plan', { at: 5, body: shopDbFinal() })], false);
      retried.sent(silentRead(b, 'x', POLL, tag));
      retried.answered([b.post('apply', { at: POLL + 4, status: 202, body: { operationId: OP_ID } }), b.read(OP_ID, { at: POLL + 5, body: IN_PROGRESS })], true);
      retried.sent(silentRead(b, 'x', 2 * POLL, tag));
      expect(judged, tag).toEqual([{ seqs: [1, 3, 4, 5, 6], rules: ruleIdsJudging(situation) }]);
    }
  });

  it('keeps the first contrast answered meanwhile', () => {
    const { retried, judged } = follow();
    const b = new TranscriptBuilder();
    retried.sent(bad(b, 0, 500));
    retried.answered([b.post('plan', { at: 5, body: shopDbFinal() })], true);
    retried.answered([b.post('plan', { at: 6, body: shopDbFinal() })], true);
    retried.sent(bad(b, POLL, 500));
    retried.sent(bad(b, 2 * POLL, 500));
    expect(judged.map((j) => j.seqs)).toEqual([[1, 2, 4, 5]]);
  });

  it('takes nothing answered before the tries began for their contrast', () => {
    const { retried, judged } = follow();
    const b = new TranscriptBuilder();
    retried.answered([b.post('plan', { at: 0, body: shopDbFinal() })], true);
    for (const at of [1, POLL, 2 * POLL]) retried.sent(bad(b, at, 500));
    expect(judged.map((j) => j.seqs)).toEqual([[2, 3, 4]]);
  });

  it('ignores sends of no bad-input or unattached kind', () => {
    const { retried, judged } = follow();
    const b = new TranscriptBuilder();
    for (const at of [0, POLL, 2 * POLL]) retried.sent(b.post('apply', { at, status: 500, body: 'boom', contentType: 'text/plain' }));
    for (const at of [1, POLL + 1, 2 * POLL + 1]) retried.sent(b.read(OP_ID, { at, status: 500, body: 'boom', contentType: 'text/plain' }));
    expect(judged).toEqual([]);
  });

  it('follows 64 bodies at once: a new one past them is not followed, one already followed still is', () => {
    const { retried, judged } = follow();
    const b = new TranscriptBuilder();
    for (let i = 0; i < 64; i++) retried.sent(bad(b, i, 500, 'invalid-change-set', 'apply', `{"changes": ${i}}`));
    for (const at of [100, POLL, 2 * POLL]) retried.sent(bad(b, at, 500, 'invalid-change-set', 'apply', '{"changes": "new"}'));
    expect(judged).toEqual([]);
    for (const at of [POLL, 2 * POLL]) retried.sent(bad(b, at, 500, 'invalid-change-set', 'apply', '{"changes": 0}'));
    expect(judged.map((j) => j.seqs)).toEqual([[1, 68, 69]]);
    // The body judged is no longer followed: room for a new one.
    for (const at of [3 * POLL, 4 * POLL, 5 * POLL]) retried.sent(bad(b, at, 500, 'invalid-change-set', 'apply', '{"changes": "new"}'));
    expect(judged).toHaveLength(2);
  });
});
