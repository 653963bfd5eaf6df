import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wallClock } from '../../src/report/expected-end.js';
import { budgetLeft, createProgress, isoDuration, shortId } from '../../src/report/progress.js';

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

/** Back up four rows, blank each of them, and return to the first. */
const ERASE_FOUR = '\r\u001b[4A\u001b[2K\u001b[1B\u001b[2K\u001b[1B\u001b[2K\u001b[1B\u001b[2K\u001b[3A';

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
      `accepted apply shop-db as ${ID} (waits up to PT5M, until ${wallClock(1_750_000_000_000 + 300_000)})`,
      '8c1f…e2a1 in_progress: Step 1 of 3: queued.',
      '8c1f…e2a1 in_progress: Step 2 of 3: creating shop-db.',
      '8c1f…e2a1 the control plane would record succeeded after 4.2s',
    ];
    expect(lines).toHaveLength(expected.length);
    lines.forEach((line, i) => expect(line).toMatch(new RegExp(`^${STAMP} ${expected[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)));
    expect(stream.text).not.toMatch(/\u001b/);
  });

  it('writes no line, live or logged, for work sent as load and stopped when its case ended', () => {
    vi.useFakeTimers();
    for (const tty of [false, true]) {
      let now = 1_000_000;
      const stream = new FakeStream(tty, 100);
      const progress = createProgress(asStream(stream), { color: false, startedAt: now, now: () => now });
      progress.operationAccepted(ID, 'shop-db', 'plan', 300_000);
      progress.operationAccepted(`${ID}-2`, 'shop-db', 'plan', 300_000);
      now += 1000;
      progress.operationEnded(ID, 'the kit stopped following this work: the case it ran beside as load had ended', true);
      progress.operationEnded(`${ID}-2`, 'the control plane would record succeeded after 1.0s');
      vi.advanceTimersByTime(100);
      progress.stop();
      expect(stream.text).not.toContain('as load had ended');
      expect(stream.text).toContain('the control plane would record succeeded after 1.0s');
      // Neither is still counted as running.
      expect(stream.text).not.toMatch(/[12] operations? running/);
    }
    vi.useRealTimers();
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
    expect(first.split('\n').slice(1, 3)).toEqual(['waiting for 1 operation (apply shop-db 8c1f…e2a1)', `ends by ${wallClock(1_300_000)} at the latest, in 4m48s (deadlines)`]);
    vi.advanceTimersByTime(100);
    // The second frame goes back up over the four lines of the first, blanking each on the way.
    expect(stream.writes[1]!.startsWith(ERASE_FOUR)).toBe(true);
    progress.operationEnded(ID, 'succeeded after 12.4s');
    expect(stream.writes.at(-1)).toBe(`${ERASE_FOUR}• apply shop-db  8c1f…e2a1  succeeded after 12.4s\n`);
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

describe('suite progress on a stream that is not a terminal', () => {
  it('prints one line when a suite ends, with its cases and what is left of the time limit, and nothing while it runs', () => {
    let now = 1_750_000_000_000;
    const stream = new FakeStream(false);
    const progress = createProgress(asStream(stream), { color: false, startedAt: now, now: () => now, timeLimitMs: 120_000 });
    progress.suiteStarted('scenario/burst', 4);
    progress.casesDone('scenario/burst', 1, 4);
    progress.casesDone('scenario/burst', 4, 4);
    expect(stream.text).toBe('');
    now += 4_000;
    progress.suiteEnded('scenario/burst', '4 of 4 cases');
    const lines = stream.text.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${STAMP} scenario/burst ended after 4\\.0s: 4 of 4 cases \\(1m56s left of PT2M\\)$`));
    progress.stop();
  });

  it('leaves the budget out without a time limit', () => {
    const stream = new FakeStream(false);
    let now = 0;
    const progress = createProgress(asStream(stream), { color: false, startedAt: 0, now: () => now });
    progress.suiteStarted('property/malformed-json', 40);
    now = 500;
    progress.suiteEnded('property/malformed-json', '40 of 40 cases: held over 40 cases');
    expect(stream.text).toMatch(/property\/malformed-json ended after 500ms: 40 of 40 cases: held over 40 cases\n$/);
    expect(stream.text).not.toContain('left');
  });
});

describe('suite progress on a terminal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws a live line per suite with its cases and the budget left, above the operations, and prints its end above the block', () => {
    let now = 1_000_000;
    const stream = new FakeStream(true, 100);
    const progress = createProgress(asStream(stream), { color: false, startedAt: now, now: () => now, timeLimitMs: 120_000 });
    progress.suiteStarted('scenario/plan-and-apply', 6);
    progress.suiteStarted('scenario/unknown-operations');
    progress.operationAccepted(ID, 'shop-db', 'apply', 300_000);
    now += 1_000;
    progress.casesDone('scenario/plan-and-apply', 2, 6);
    progress.casesDone('scenario/unknown-operations', 1);
    vi.advanceTimersByTime(100);
    const lines = stream.text.split('\n');
    expect(lines[0]).toMatch(/^. scenario\/plan-and-apply {2}2\/6 cases {2}1\.0s {2}1m59s left of PT2M$/);
    expect(lines[1]).toMatch(/^. scenario\/unknown-operations {2}1 case done {2}1\.0s {2}1m59s left of PT2M$/);
    expect(lines[2]).toMatch(/^. apply shop-db {2}8c1f…e2a1/);
    expect(lines[3]).toBe('waiting for 1 operation (apply shop-db 8c1f…e2a1)');
    // The deadline is past the time limit: the time limit ends the run first.
    expect(lines[4]).toBe(`ends by ${wallClock(1_120_000)} at the latest, in 1m59s (time limit)`);
    expect(lines[5]).toBe('1 operation running, 1.0s since the run started, 1m59s left of PT2M');
    now += 3_000;
    progress.suiteEnded('scenario/unknown-operations', '2 cases');
    // The line that stays, then at once the block again, without the suite that ended.
    const ended = stream.writes.at(-1)!;
    expect(ended).toMatch(/^\r\u001b\[6A(\u001b\[2K\u001b\[1B){5}\u001b\[2K\u001b\[5A• scenario\/unknown-operations {2}4\.0s {2}2 cases\n. scenario\/plan-and-apply /);
    expect(ended.split('\n').slice(1).join('\n')).not.toContain('unknown-operations');
    progress.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shows the candidates a property tried while shrinking beside its generated cases', () => {
    const stream = new FakeStream(true, 100);
    const progress = createProgress(asStream(stream), { color: false, startedAt: 0, now: () => 2_000 });
    progress.suiteStarted('property/generated-plans', 20);
    progress.casesDone('property/generated-plans', 20, 20, 7);
    vi.advanceTimersByTime(100);
    expect(stream.text.split('\n')[0]).toMatch(/^. property\/generated-plans {2}20\/20 cases, shrinking a failure: 7 candidates tried {2}0ms$/);
    progress.stop();
  });
});

describe('helpers', () => {
  it('say what is left of the time limit, that it is spent, or nothing without one', () => {
    expect(budgetLeft({ now: () => 30_000, startedAt: 0, timeLimitMs: 120_000 })).toBe('1m30s left of PT2M');
    expect(budgetLeft({ now: () => 130_000, startedAt: 0, timeLimitMs: 120_000 })).toBe('time limit PT2M spent');
    expect(budgetLeft({ now: () => 30_000, startedAt: 0 })).toBeUndefined();
  });

  it('shortens ids and writes durations as ISO 8601', () => {
    expect(shortId(ID)).toBe('8c1f…e2a1');
    expect(shortId('short')).toBe('short');
    expect(isoDuration(300_000)).toBe('PT5M');
    expect(isoDuration(90_000)).toBe('PT1M30S');
    expect(isoDuration(500)).toBe('PT0.5S');
    expect(isoDuration(30 * 60_000)).toBe('PT30M');
  });
});

/** A terminal whose size can change, telling its listeners as a TTY stream does. */
class FakeTerminal extends FakeStream {
  private readonly listeners = new Set<() => void>();
  constructor(
    public override columns: number,
    public rows: number,
  ) {
    super(true, columns);
  }
  on(event: string, listener: () => void): this {
    if (event === 'resize') this.listeners.add(listener);
    return this;
  }
  off(event: string, listener: () => void): this {
    if (event === 'resize') this.listeners.delete(listener);
    return this;
  }
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    for (const listener of this.listeners) listener();
  }
  get listening(): number {
    return this.listeners.size;
  }
}

/** The lines of the frame a write drew, after the cursor moves that erase the one before. */
function frameLines(write: string): string[] {
  return write.replace(/^\r\u001b\[\d+A(\u001b\[2K\u001b\[1B)*\u001b\[2K(\u001b\[\d+A)?/, '').split('\n').slice(0, -1);
}

describe('a busy run on a terminal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws frames that fit the screen, follows a resize at once, and erases the rows a narrower screen wrapped', () => {
    let now = 1_000_000;
    const terminal = new FakeTerminal(100, 30);
    const progress = createProgress(asStream(terminal), { color: true, startedAt: now, now: () => now });
    progress.suiteStarted('scenario/burst', 50);
    for (let i = 0; i < 50; i++) progress.operationAccepted(`${ID}-${i}`, 'shop-db', 'apply', 300_000, 'scenario/burst');
    for (let i = 0; i < 16; i++) progress.operationAccepted(`${ID}-p${i}`, 'shop-cache', 'plan', 300_000, 'scenario/plan-and-apply');
    for (let i = 0; i < 12; i++) progress.operationEnded(`${ID}-${i}`, 'final: succeeded');
    now += 6_000;
    vi.advanceTimersByTime(100);
    const frame = frameLines(terminal.writes.at(-1)!);
    expect(frame.length).toBeLessThanOrEqual(10);
    expect(frame).toContain('\u001b[2m  scenario/burst: 50 operations, 38 in progress, oldest 6.0s\u001b[22m');
    const widest = Math.max(...frame.map((line) => line.replace(/\u001b\[\d+m/g, '').length));
    expect(widest).toBeLessThanOrEqual(99);

    const writes = terminal.writes.length;
    terminal.resize(40, 8);
    // Redrawn at the resize, not at the next tick: the old lines, up to 99 columns, now take up to 3 rows each.
    expect(terminal.writes.length).toBe(writes + 1);
    const rowsBefore = frame.reduce((sum, line) => sum + Math.max(1, Math.ceil(line.replace(/\u001b\[\d+m/g, '').length / 40)), 0);
    expect(terminal.writes.at(-1)!.startsWith(`\r\u001b[${rowsBefore}A`)).toBe(true);
    const small = frameLines(terminal.writes.at(-1)!);
    expect(small.length).toBeLessThanOrEqual(2);
    expect(Math.max(...small.map((line) => line.replace(/\u001b\[\d+m/g, '').length))).toBeLessThanOrEqual(39);
    progress.stop();
    expect(terminal.listening).toBe(0);
  });

  it('prints a suite summary whole, however long, wrapped between words, and the replay command it ends with whole on a row of its own', () => {
    const terminal = new FakeTerminal(60, 20);
    const progress = createProgress(asStream(terminal), { color: false, startedAt: 0, now: () => 0 });
    progress.suiteStarted('property/model-based-runs', 30);
    const replay = '--property property/model-based-runs --seed 1594437113 --path 0:0:4:4:4@ADGI:K';
    progress.suiteEnded('property/model-based-runs', `30 of 30 cases: broke operation.no-in-progress-after-final and operation.final-stable; replay with ${replay}`);
    const rows = terminal.text.trimEnd().split('\n');
    const command = rows.findIndex((row) => row.trim().startsWith('replay:'));
    // Copied from the screen, the command pastes as one: wrapped into rows it would paste as several.
    expect(rows[command]).toBe(`      replay: ${replay}`);
    const said = rows.slice(rows.findIndex((row) => row.includes('property/model-based-runs')), command);
    expect(said.length).toBeGreaterThan(1);
    for (const row of said) expect(row.length).toBeLessThanOrEqual(59);
    expect(said.map((row) => row.trim()).join(' ')).toContain('30 of 30 cases: broke operation.no-in-progress-after-final and operation.final-stable');
    progress.stop();
  });
});

describe('a log while suites wait', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says what is still running whenever it has been quiet for a while, never leaving 30 s without a line', () => {
    let now = 1_750_000_000_000;
    const stream = new FakeStream(false);
    const progress = createProgress(asStream(stream), { color: false, startedAt: now, now: () => now });
    const tick = (ms: number): void => {
      for (let i = 0; i < ms / 1000; i++) {
        now += 1000;
        vi.advanceTimersByTime(1000);
      }
    };
    tick(60_000);
    expect(stream.text).toBe('');
    progress.suiteStarted('property/model-based-runs', 30);
    progress.operationAccepted(ID, 'shop-db', 'apply', 300_000, 'property/model-based-runs');
    const stamps: number[] = [];
    const lines = (): string[] => stream.text.trimEnd().split('\n');
    for (let second = 0; second < 95; second++) {
      const before = lines().length;
      tick(1000);
      if (lines().length > before) stamps.push(now);
    }
    expect(stamps.length).toBeGreaterThanOrEqual(3);
    stamps.reduce((previous, at) => {
      expect(at - previous).toBeLessThanOrEqual(30_000);
      return at;
    });
    expect(lines().at(-2)).toMatch(/ still running: property\/model-based-runs 0\/30 cases 1m\d\ds; 1 operation in progress, the oldest for 1m\d\ds$/);
    expect(lines().at(-1)).toMatch(/ waiting for 1 operation \(property\/model-based-runs apply shop-db 8c1f…e2a1\); ends by \d\d:\d\d:\d\d at the latest, in 3m\d\ds \(deadlines\)$/);
    progress.operationEnded(ID, 'final: succeeded');
    progress.suiteEnded('property/model-based-runs', '30 of 30 cases');
    const ended = lines().length;
    tick(60_000);
    expect(lines()).toHaveLength(ended);
    progress.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('however busy the log, says every 30 s (or each poll interval, if longer) what the run waits for and when it ends', () => {
    const start = 1_750_000_000_000;
    let now = start;
    const plan = { operationMs: 15 * 60_000, properties: true, propertyChain: 2, restartTimeoutMs: 120_000, burst: true };
    const summaries = (pollIntervalMs: number): string[] => {
      now = start;
      const stream = new FakeStream(false);
      const progress = createProgress(asStream(stream), { color: false, startedAt: start, now: () => now, plan, pollIntervalMs });
      progress.suiteStarted('scenario/plan-and-apply', 12);
      progress.operationAccepted(ID, 'postgres', 'apply', plan.operationMs, 'scenario/plan-and-apply');
      // A read with a new note every 5 s keeps the log from ever being quiet for 25 s.
      for (let second = 1; second <= 120; second++) {
        now += 1000;
        if (second % 5 === 0) progress.operationRead(ID, `Step ${second} of 120`);
        vi.advanceTimersByTime(1000);
      }
      progress.stop();
      return stream.text.split('\n').filter((line) => /\] (still running:|waiting for) /.test(line));
    };
    const every30 = summaries(10_000);
    expect(every30).toHaveLength(8);
    // At the start: the restart (at most its 2 minutes), then the burst (an operation-length), then the properties (two).
    expect(every30.slice(0, 2)).toEqual([
      `[${wallClock(start + 30_000)}.000] still running: scenario/plan-and-apply 0/12 cases 30.0s; 1 operation in progress, the oldest for 30.0s`,
      `[${wallClock(start + 30_000)}.000] waiting for 1 operation (scenario/plan-and-apply apply postgres 8c1f…e2a1), then the restart, the burst and the properties; ` +
        `ends by ${wallClock(start + 47.5 * 60_000)} at the latest, in 47m00s (properties 2×PT15M)`,
    ]);
    expect(summaries(60_000)).toHaveLength(4);
  });

  it('writes a suite summary whole, however long: it may end with a replay command', () => {
    const stream = new FakeStream(false);
    const progress = createProgress(asStream(stream), { color: false, startedAt: 0, now: () => 0 });
    const replay = `--property property/model-based-runs --seed 1594437113 --path ${'0:'.repeat(120)}@ADGI:K`;
    progress.suiteEnded('property/model-based-runs', `30 of 30 cases: broke operation.no-in-progress-after-final; replay with ${replay}`);
    expect(stream.text).toMatch(new RegExp(`replay with ${replay.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`));
    progress.stop();
  });
});

describe('operations of a property on a terminal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('count with the property, whichever of its cases accepted them', () => {
    const now = 1_000_000;
    const terminal = new FakeTerminal(100, 24);
    const progress = createProgress(asStream(terminal), { color: false, startedAt: now, now: () => now });
    progress.suiteStarted('property/generated-plans', 20);
    for (let i = 0; i < 12; i++) progress.operationAccepted(`${ID}-${i}`, `plan-${i}`, 'plan', 60_000, `property/generated-plans#1.${i + 1}`);
    vi.advanceTimersByTime(100);
    expect(frameLines(terminal.writes.at(-1)!)).toContain('  property/generated-plans: 12 operations, 12 in progress, oldest 0ms');
    progress.stop();
  });
});
