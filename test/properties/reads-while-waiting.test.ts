import { describe, expect, it, vi } from 'vitest';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import type { TrackedOperation } from '../../suites/properties/model/model.js';
import { ReadsWhileWaiting } from '../../suites/properties/model/reads-while-waiting.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, shopDbFinal } from '../support/transcript-builder.js';

const POLL_MS = 20;
const SHOP_DB: LoadedChangeSet = { name: 'shop-db', file: 'shop-db.json', text: '{}', changes: [{ id: 'shop-db', environment: 'test' }], lockKey: 'shop' };

/** An operation accepted just now, and reads of it that answer in turn what `answers` holds (the last one ever after). */
function setUp(answers: Array<'in_progress' | 'final'>, options: { failing?: boolean } = {}) {
  const b = new TranscriptBuilder();
  const accepted = b.post('plan', { status: 202, body: { operationId: OP_ID } });
  accepted.endedAt = Date.now();
  const op: TrackedOperation = { ordinal: 1, id: OP_ID, kind: 'plan', changeSet: SHOP_DB, accepted, endsBy: 1 };
  const sent: Exchange[] = [];
  const ended: string[] = [];
  const stop = new AbortController();
  const reads = new ReadsWhileWaiting(
    {
      pollIntervalMs: POLL_MS,
      maxOperationDurationMs: 60_000,
      read: async () => {
        if (options.failing) throw new Error('a bug of the kit');
        const answer = answers[Math.min(sent.length, answers.length - 1)];
        const read = b.read(OP_ID, { body: answer === 'final' ? shopDbFinal() : IN_PROGRESS });
        sent.push(read);
        return read;
      },
      ended: (_op, ending) => ended.push(ending.reason),
      heard: () => undefined,
    },
    () => stop.signal,
  );
  return { op, reads, sent, ended, stop };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The case waits for a lock that is never freed: reads are due from then on. */
function blockedForever(reads: ReadsWhileWaiting): void {
  void reads.whileBlocked(new Promise(() => undefined));
}

describe("the control plane's reads while a case waits", () => {
  it('reads an operation no read reached for a poll interval, until a read ends its following, then no more', async () => {
    const { op, reads, sent, ended } = setUp(['in_progress', 'in_progress', 'final']);
    reads.watch(op);
    blockedForever(reads);
    await vi.waitFor(() => expect(ended).toEqual(['final']), { timeout: 5000 });
    await sleep(POLL_MS * 3);
    expect(sent).toHaveLength(3);
    expect(reads.endingOf(op)?.read).toBe(sent[2]);
    reads.close();
  });

  it('sends none while the case reads the operation itself, nor within a poll interval after', async () => {
    const { op, reads, sent } = setUp(['in_progress']);
    reads.watch(op);
    blockedForever(reads);
    let answered!: () => void;
    const caseRead = reads.readByCase(op, () => new Promise<void>((resolve) => (answered = resolve)));
    await sleep(POLL_MS * 5);
    expect(sent).toHaveLength(0);
    answered();
    await caseRead;
    // Once the case's read has ended, a poll interval without a read makes one due again.
    await vi.waitFor(() => expect(sent.length).toBeGreaterThan(0), { timeout: 5000 });
    reads.close();
  });

  it("holds the case's own reads until a read of these in flight has ended, so that the two never overlap", async () => {
    const { op, reads, sent } = setUp(['in_progress']);
    reads.watch(op);
    blockedForever(reads);
    await vi.waitFor(() => expect(sent.length).toBeGreaterThan(0), { timeout: 5000 });
    reads.close();
    let overlapping = false;
    const slow = new ReadsWhileWaiting(
      {
        pollIntervalMs: POLL_MS,
        maxOperationDurationMs: 60_000,
        read: async () => {
          keeperReading = true;
          await sleep(POLL_MS * 3);
          keeperReading = false;
          return sent[0]!;
        },
        ended: () => undefined,
        heard: () => undefined,
      },
      () => new AbortController().signal,
    );
    let keeperReading = false;
    slow.watch(op);
    blockedForever(slow);
    await vi.waitFor(() => expect(keeperReading).toBe(true), { timeout: 5000 });
    await slow.readByCase(op, async () => {
      overlapping = keeperReading;
    });
    expect(overlapping).toBe(false);
    slow.close();
  });

  it('sends none while the case goes through its own steps, nothing holding it', async () => {
    const { op, reads, sent } = setUp(['in_progress']);
    reads.watch(op);
    await sleep(POLL_MS * 5);
    expect(sent).toHaveLength(0);
    // Held for a lock, the case leaves its work unread for a poll interval: then a read is due.
    let freed!: () => void;
    const lock = reads.whileBlocked(new Promise<void>((resolve) => (freed = resolve)));
    await vi.waitFor(() => expect(sent.length).toBeGreaterThan(0), { timeout: 5000 });
    freed();
    await lock;
    reads.close();
  });

  it('sends none while the case follows the operation with its own poller', async () => {
    const { op, reads, sent } = setUp(['in_progress']);
    reads.watch(op);
    blockedForever(reads);
    await reads.whileFollowed(op, () => sleep(POLL_MS * 5));
    expect(sent).toHaveLength(0);
    reads.close();
  });

  it('stops when the case is stopped or closes them', async () => {
    const { op, reads, sent, stop } = setUp(['in_progress']);
    reads.watch(op);
    blockedForever(reads);
    stop.abort();
    await sleep(POLL_MS * 3);
    expect(sent).toHaveLength(0);
  });

  it('keeps a failure of the kit for the case to raise, instead of losing it', async () => {
    const { op, reads } = setUp(['in_progress'], { failing: true });
    reads.watch(op);
    blockedForever(reads);
    await vi.waitFor(() => expect(reads.failed?.error).toEqual(new Error('a bug of the kit')), { timeout: 5000 });
    reads.close();
  });
});
