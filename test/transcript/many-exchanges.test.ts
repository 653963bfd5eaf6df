import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/transcript/exchange.js';
import { burstWindow, SITUATION_SUITES } from '../../src/transcript/situations.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { operations } from '../../src/transcript/views.js';
import { OP_ID, T0, TranscriptBuilder } from '../support/transcript-builder.js';

// More exchanges than a spread of function arguments can hold: a long run against a fast target makes as many.
const MANY = 300_000;

describe('a transcript of hundreds of thousands of exchanges', () => {
  const b = new TranscriptBuilder();
  const accepted = b.post('plan', { at: 0, status: 202, body: { operationId: OP_ID }, suite: SITUATION_SUITES.burst });
  const final = b.read(OP_ID, { at: 5, body: { outcome: 'succeeded', description: 'done', results: [] }, suite: SITUATION_SUITES.burst });
  const many: Exchange[] = Array.from({ length: MANY }, (_, i) => ({ ...final, seq: i + 3, sentAt: final.sentAt + i, endedAt: final.endedAt + i }));
  const all = [accepted, final, ...many];

  it('is copied, not spread, into a new transcript', () => {
    expect(new Transcript(all).exchanges).toHaveLength(MANY + 2);
  });

  it('gives the burst window and the first final answer without a spread', () => {
    const transcript = new Transcript(all);
    expect(burstWindow(transcript)).toMatchObject({ startedAt: accepted.sentAt, endedAt: many[MANY - 1]!.endedAt });
    const [op] = operations(transcript);
    expect(op!.finalReads).toHaveLength(MANY + 1);
    expect(op!.firstFinalSentAt).toBe(final.sentAt);
    expect(op!.firstFinalReceivedAt).toBe(final.endedAt);
    expect(T0).toBeLessThan(final.sentAt);
  });
});

describe('operations', () => {
  it('groups a transcript once while it does not grow, shares the views frozen, and groups again when it grows', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 5, body: { outcome: 'in_progress', description: 'working', results: [] } });
    const first = operations(b.transcript);
    expect(operations(b.transcript)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first[0]) && Object.isFrozen(first[0]!.reads)).toBe(true);
    expect(() => first[0]!.reads.push(first[0]!.accepted)).toThrow(TypeError);
    b.read(OP_ID, { at: 10, body: { outcome: 'succeeded', description: 'done', results: [] } });
    const grown = operations(b.transcript);
    expect(grown).not.toBe(first);
    expect(grown[0]!.reads).toHaveLength(2);
    expect(grown[0]!.finalReads).toHaveLength(1);
    expect(first[0]!.reads).toHaveLength(1);
  });
});
