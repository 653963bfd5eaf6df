import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wallClock } from '../../src/report/expected-end.js';
import { createProgress, type ProgressStream } from '../../src/report/progress.js';

const ID = '8c1f3d2a-9b7e-4c6d-a5f4-3e2b1d0ce2a1';

/** Collects what progress writes; a terminal of `columns` when `isTTY`. */
class FakeStream {
  readonly writes: string[] = [];
  constructor(
    readonly isTTY: boolean,
    readonly columns = 120,
  ) {}
  write(chunk: string): boolean {
    this.writes.push(chunk);
    return true;
  }
  get text(): string {
    return this.writes.join('');
  }
}

function asStream(fake: FakeStream): ProgressStream {
  return fake as unknown as ProgressStream;
}

describe('the per-operation line after a failed read', () => {
  it('says what the read answered, then what was known before, in log lines', () => {
    let now = 1_750_000_000_000;
    const stream = new FakeStream(false);
    const progress = createProgress(asStream(stream), { color: false, startedAt: now, now: () => now });
    progress.operationAccepted(ID, 'shop-db', 'apply', 300_000);
    now += 1000;
    progress.operationRead(ID, undefined, 'read timed out');
    progress.operationRead(ID, 'Step 1 of 3: queued.');
    now += 1000;
    progress.operationRead(ID, undefined, 'read answered 502');
    progress.operationRead(ID, undefined, 'read answered 502');
    progress.operationRead(ID, 'Step 1 of 3: queued.');
    progress.stop();
    const lines = stream.text.trimEnd().split('\n').map((line) => line.replace(/^\[[\d:.]+\] /, ''));
    expect(lines).toEqual([
      `accepted apply shop-db as ${ID} (waits up to PT5M, until ${wallClock(1_750_000_000_000 + 300_000)})`,
      '8c1f…e2a1 read timed out; nothing known yet',
      '8c1f…e2a1 in_progress: Step 1 of 3: queued.',
      '8c1f…e2a1 read answered 502; last known: in_progress',
      // The work answered again: its note is printed again, so the line after a failure is never the last word.
      '8c1f…e2a1 in_progress: Step 1 of 3: queued.',
    ]);
  });

  describe('on a terminal', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('shows the failed read unquoted in place of the note, and the note again once a read says in_progress', () => {
      let now = 1_000_000;
      const stream = new FakeStream(true, 120);
      const progress = createProgress(asStream(stream), { color: false, startedAt: now, now: () => now });
      progress.operationAccepted(ID, 'shop-db', 'apply', 300_000);
      const liveLine = (): string => {
        stream.writes.length = 0;
        vi.advanceTimersByTime(100);
        return stream.text.replace(/^\r\u001b\[\d+A\u001b\[J/, '').split('\n')[0]!;
      };
      progress.operationRead(ID, undefined, 'read answered 504');
      now += 2000;
      expect(liveLine()).toMatch(/^. apply shop-db {2}8c1f…e2a1 {2}2\.0s \/ PT5M {2}read answered 504; nothing known yet$/);
      progress.operationRead(ID, 'Step 2 of 3: creating shop-db.');
      expect(liveLine()).toMatch(/ {2}"Step 2 of 3: creating shop-db\."$/);
      progress.operationRead(ID, undefined, 'read answered 502');
      expect(liveLine()).toMatch(/ {2}read answered 502; last known: in_progress$/);
      progress.operationRead(ID, undefined);
      expect(liveLine()).toMatch(/ {2}"Step 2 of 3: creating shop-db\."$/);
      progress.stop();
    });
  });
});
