import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UnattachedReads } from '../../src/observe/unattached-reads.js';
import { idKey } from '../../src/observe/id-key.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { IN_PROGRESS, T0, TranscriptBuilder } from '../support/transcript-builder.js';

/** PT1M and a 10 s poll interval: a UUID first read 70 s or more after the start, never accepted, is unknown. */
const CONTEXT = { startedAt: T0, maxOperationDuration: { ms: 60_000, text: 'PT1M', source: 'flag' as const }, pollIntervalMs: 10_000 };
const UNKNOWN_FROM = 70_000;

const NONE_ACCEPTED = (): boolean => false;

function reads(): { b: TranscriptBuilder; read: (id: string, at: number) => Exchange } {
  const b = new TranscriptBuilder();
  return { b, read: (id, at) => b.read(id, { at, status: 404, body: { error: 'unknown operation' } }) };
}

describe('what the observer knows a read of an operation it does not follow to be', () => {
  it('knows a UUID first read once the observation has run the deadline and a poll interval, and never accepted, for unknown', () => {
    const unattached = new UnattachedReads(CONTEXT);
    const { read } = reads();
    expect(unattached.tagged(read(randomUUID(), UNKNOWN_FROM), NONE_ACCEPTED)?.tag).toBe('read-unknown');
    expect(unattached.tagged(read(randomUUID(), UNKNOWN_FROM - 1), NONE_ACCEPTED)?.tag).toBe('poll');
  });

  it('never calls an id unknown that a 202 of the observation carried, in either case', () => {
    const unattached = new UnattachedReads(CONTEXT);
    const { read } = reads();
    const id = randomUUID();
    const accepted = new Set([idKey(id)]);
    expect(unattached.tagged(read(id.toUpperCase(), UNKNOWN_FROM + 5), (key) => accepted.has(key))?.tag).toBe('poll');
  });

  it('never calls an id unknown whose first read came too early to know, in either case', () => {
    const unattached = new UnattachedReads(CONTEXT);
    const { read } = reads();
    const early = randomUUID();
    unattached.tagged(read(early, 1_000), NONE_ACCEPTED);
    expect(unattached.tagged(read(early.toUpperCase(), UNKNOWN_FROM + 5), NONE_ACCEPTED)?.tag).toBe('poll');
    expect(unattached.tagged(read(randomUUID(), UNKNOWN_FROM + 6), NONE_ACCEPTED)?.tag).toBe('read-unknown');
  });

  it('calls no read unknown once more ids were read early than it remembers', () => {
    const unattached = new UnattachedReads(CONTEXT);
    const { read } = reads();
    const first = read(randomUUID(), 1_000);
    unattached.tagged(first, NONE_ACCEPTED);
    // The same exchange under 100,000 other ids: what is remembered is the id, not the read.
    for (let i = 1; i < 100_000; i++) unattached.tagged({ ...first, operationId: `00000000-0000-4000-8000-${i.toString().padStart(12, '0')}` }, NONE_ACCEPTED);
    expect(unattached.tagged(read(randomUUID(), UNKNOWN_FROM + 5), NONE_ACCEPTED)?.tag).toBe('read-unknown');
    unattached.tagged({ ...first, operationId: randomUUID() }, NONE_ACCEPTED);
    expect(unattached.tagged(read(randomUUID(), UNKNOWN_FROM + 6), NONE_ACCEPTED)?.tag).toBe('poll');
  });

  it('passes a read that names no id as it is', () => {
    const unattached = new UnattachedReads(CONTEXT);
    const { read } = reads();
    const { operationId: _id, ...anonymous } = read(randomUUID(), UNKNOWN_FROM + 5);
    expect(unattached.tagged(anonymous as Exchange, NONE_ACCEPTED)).toBe(anonymous);
  });

  it('holds reads of ids that are no UUID until the provisioner gives an id, then calls them malformed if it gave a UUID', () => {
    const unattached = new UnattachedReads(CONTEXT);
    const { read } = reads();
    expect(unattached.tagged(read('op-1', 10), NONE_ACCEPTED)).toBeUndefined();
    expect(unattached.tagged(read('op-2', 20), NONE_ACCEPTED)).toBeUndefined();
    expect(unattached.given(randomUUID()).map((r) => [r.operationId, r.tag])).toEqual([
      ['op-1', 'read-malformed'],
      ['op-2', 'read-malformed'],
    ]);
    // Held reads are handed once.
    expect(unattached.given(randomUUID())).toEqual([]);
    expect(unattached.tagged(read('op-3', 30), NONE_ACCEPTED)?.tag).toBe('read-malformed');
    expect(unattached.undecidedAtEnd()).toEqual([]);
  });

  it('calls no id malformed once the provisioner gave an id that is no UUID', () => {
    const held = new UnattachedReads(CONTEXT);
    const { read } = reads();
    held.tagged(read('op-1', 10), NONE_ACCEPTED);
    expect(held.given('op-9').map((r) => r.tag)).toEqual(['poll']);
    const mixed = new UnattachedReads(CONTEXT);
    mixed.given(randomUUID());
    expect(mixed.tagged(read('op-2', 20), NONE_ACCEPTED)?.tag).toBe('read-malformed');
    mixed.given('op-9');
    expect(mixed.tagged(read('op-3', 30), NONE_ACCEPTED)?.tag).toBe('poll');
  });

  it('hands the reads still held when the observation ends, once, as they are', () => {
    const unattached = new UnattachedReads(CONTEXT);
    const { read } = reads();
    unattached.tagged(read('op-1', 10), NONE_ACCEPTED);
    expect(unattached.undecidedAtEnd().map((r) => [r.operationId, r.tag])).toEqual([['op-1', 'poll']]);
    expect(unattached.undecidedAtEnd()).toEqual([]);
  });

  it('holds 256 such reads at most: past them a read is told at once, as a read of no kind', () => {
    const unattached = new UnattachedReads(CONTEXT);
    const b = new TranscriptBuilder();
    for (let i = 0; i < 256; i++) expect(unattached.tagged(b.read(`op-${i}`, { body: IN_PROGRESS }), NONE_ACCEPTED)).toBeUndefined();
    expect(unattached.tagged(b.read('op-256', { body: IN_PROGRESS }), NONE_ACCEPTED)?.tag).toBe('poll');
    expect(unattached.undecidedAtEnd()).toHaveLength(256);
  });
});
