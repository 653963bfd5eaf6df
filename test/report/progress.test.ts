import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgress, isoDuration, shortId } from '../../src/report/progress.js';

const ID = '8c1f3d2a-9b7e-4c6d-a5f4-3e2b1d0ce2a1';

class FakeStream {
  readonly writes: string[] = [];
  constructor(
    readonly isTTY?: boolean,
    readonly columns?: number,
  ) {}
  write(chunk: string): boolean {
    this.writes.push(chunk);
    return true;
  }
  get text(): string {
    return this.writes.join('');
  }
}

function asStream(fake: FakeStream): NodeJS.WritableStream & { isTTY?: boolean; columns?: number } {
  return fake as unknown as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

const STAMP = String.raw`\[\d\d:\d\d:\d\d\.\d{3}\]`;

describe('progress on a stream that is not a terminal', () => {
  it('prints timestamped lines: accepted, each new note, and the end', () => {
    let now = 1_750_000_000_000;
    const stream = new FakeStream(false);
    const progress = createProgress(asStream(stream), { color: false, startedAt: now, now: () => now });
    progress.message('starting');
    progress.operationAccepted(ID, 'shop-db', 'apply', 300_000);
    now += 1000;
    progress.operationRead(ID, 'Step 1 of 3: \u001b[31mqueued\u001b[0m.');
    progress.operationRead(ID, 'Step 1 of 3: queued.');
    progress.operationRead(ID, undefined);
    now += 1000;
    progress.operationRead(ID, 'Step 2 of 3:\ncreating shop-db.');
    now += 2200;
    progress.operationEnded(ID, 'the control plane would record succeeded after 4.2s');
    progress.stop();
    const lines = stream.text.trimEnd().split('\n');
    const expected = [
      'starting',
      `accepted apply shop-db as ${ID} (waits up to PT5M)`,
      '8c1f…e2a1 in_progress: Step 1 of 3: queued.',
      '8c1f…e2a1 in_progress: Step 2 of 3: creating shop-db.',
      '8c1f…e2a1 the control plane would record succeeded after 4.2s',
    ];
    expect(lines).toHaveLength(expected.length);
    lines.forEach((line, i) => expect(line).toMatch(new RegExp(`^${STAMP} ${expected[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)));
    expect(stream.text).not.toMatch(/\u001b/);
  });

  it('cuts long notes', () => {
    const stream = new FakeStream(false);
    const progress = createProgress(asStream(stream), { color: false, startedAt: 0 });
    progress.operationAccepted(ID, undefined, 'plan', 1000);
    progress.operationRead(ID, 'n'.repeat(1000));
    const noteLine = stream.text.trimEnd().split('\n')[1]!;
    expect(noteLine.length).toBeLessThan(220);
    expect(noteLine.endsWith('…')).toBe(true);
  });
});

describe('progress on a terminal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('redraws a block of live lines in place and prints ended operations above it', () => {
    let now = 1_000_000;
    const stream = new FakeStream(true, 60);
    const progress = createProgress(asStream(stream), { color: false, startedAt: now, now: () => now });
    progress.operationAccepted(ID, 'shop-db', 'apply', 300_000);
    progress.operationRead(ID, 'Step 2 of 3: creating shop-db and a very long tail that does not fit');
    expect(stream.writes).toEqual([]);
    now += 12_400;
    vi.advanceTimersByTime(100);
    const first = stream.writes.join('');
    const live = first.split('\n')[0]!;
    expect(live).toMatch(/^. apply shop-db {2}8c1f…e2a1 {2}12\.4s \/ PT5M {2}"Step 2 of 3: .*…"$/);
    expect(live.length).toBeLessThanOrEqual(59);
    expect(first).toContain('1 operation running');
    vi.advanceTimersByTime(100);
    // The second frame goes back up over the two lines of the first.
    expect(stream.writes[1]!.startsWith('\r\u001b[2A\u001b[J')).toBe(true);
    progress.operationEnded(ID, 'the control plane would record succeeded after 12.4s');
    expect(stream.writes.at(-1)).toMatch(/^\r\u001b\[2A\u001b\[J• apply shop-db {2}8c1f…e2a1 {2}the control plane would record succeeded after 12\.4s\n$/);
    progress.stop();
    const count = stream.writes.length;
    vi.advanceTimersByTime(1000);
    expect(stream.writes.length).toBe(count);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('redraws at most ten times a second', () => {
    const stream = new FakeStream(true, 80);
    const progress = createProgress(asStream(stream), { color: true, startedAt: 0 });
    progress.operationAccepted(ID, 'shop-db', 'apply', 60_000);
    for (let i = 0; i < 50; i++) progress.operationRead(ID, `note ${i}`);
    vi.advanceTimersByTime(1000);
    expect(stream.writes.length).toBeLessThanOrEqual(10);
    progress.stop();
  });
});

describe('helpers', () => {
  it('shortens ids and writes durations as ISO 8601', () => {
    expect(shortId(ID)).toBe('8c1f…e2a1');
    expect(shortId('short')).toBe('short');
    expect(isoDuration(300_000)).toBe('PT5M');
    expect(isoDuration(90_000)).toBe('PT1M30S');
    expect(isoDuration(500)).toBe('PT0.5S');
    expect(isoDuration(30 * 60_000)).toBe('PT30M');
  });
});
