import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/report/columns.js';
import { liveFrame, type LiveOperation, type LiveSuite, type LiveView } from '../../src/report/live-frame.js';
import { createStyle } from '../../src/report/style.js';

const PLAIN = createStyle(false);
const NOW = 1_000_000;

function operation(n: number, suite: string | undefined, ageMs: number): LiveOperation {
  return {
    id: `${String(n).padStart(8, '0')}-9b7e-4c6d-a5f4-3e2b1d0ce2a1`,
    label: `apply shop-db-${n}`,
    ...(suite !== undefined && { suite }),
    deadlineMs: 300_000,
    acceptedAt: NOW - ageMs,
    note: `Step ${n} of 3: creating a resource with a rather long name`,
  };
}

/** A default run against a slow provisioner: the burst's operations and the scenarios' at once. */
function busyView(): LiveView {
  const suites: LiveSuite[] = [
    { name: 'scenario/burst', startedAt: NOW - 6_000, done: 12, total: 50 },
    { name: 'scenario/plan-and-apply', startedAt: NOW - 7_000, done: 2, total: 12 },
    { name: 'property/model-based-runs', startedAt: NOW - 3_000, done: 1, total: 30 },
  ];
  const operations = [
    ...Array.from({ length: 16 }, (_, i) => operation(100 + i, 'scenario/plan-and-apply', 7_000 - i * 100)),
    ...Array.from({ length: 38 }, (_, i) => operation(i, 'scenario/burst', 6_000 - i * 10)),
    operation(200, 'property/model-based-runs', 2_000),
  ];
  return { now: NOW, startedAt: NOW - 8_000, spinner: '⠋', suites, operations, accepted: new Map([['scenario/burst', 50], ['scenario/plan-and-apply', 16], ['property/model-based-runs', 4]]) };
}

describe('the live frame', () => {
  it('fits a busy run in a third of a 100×30 screen: a line per suite, a line per group of operations, the oldest in the rows left', () => {
    const lines = liveFrame(busyView(), { rows: 30, columns: 100 }, PLAIN);
    expect(lines).toEqual([
      expect.stringMatching(/^⠋ scenario\/burst {2}12\/50 cases/),
      expect.stringMatching(/^⠋ scenario\/plan-and-apply {2}2\/12 cases/),
      expect.stringMatching(/^⠋ property\/model-based-runs {2}1\/30 cases/),
      '  scenario/plan-and-apply: 16 operations, 16 in progress, oldest 7.0s',
      '  scenario/burst: 50 operations, 38 in progress, oldest 6.0s',
      '  property/model-based-runs: 4 operations, 1 in progress, oldest 2.0s',
      expect.stringMatching(/^⠋ apply shop-db-100 {2}0000…e2a1 {2}7\.0s \/ PT5M/),
      expect.stringMatching(/^⠋ apply shop-db-101 /),
      expect.stringMatching(/^⠋ apply shop-db-102 /),
      '55 operations running, 8.0s since the run started',
    ]);
  });

  it('shows the few oldest operations one by one below the groups when a taller screen has room', () => {
    const lines = liveFrame(busyView(), { rows: 50, columns: 100 }, PLAIN);
    expect(lines.length).toBeLessThanOrEqual(16);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(99);
    const each = lines.filter((line) => line.startsWith('⠋ apply'));
    expect(each).toHaveLength(5);
    expect(each[0]).toMatch(/^⠋ apply shop-db-100 {2}0000…e2a1 {2}7\.0s \/ PT5M {2}"Step 100/);
    expect(lines.at(-1)).toBe('55 operations running, 8.0s since the run started');
  });

  it('is never taller than a third of the screen, nor wider than its columns less one, at any size', () => {
    const view = busyView();
    const overflows: string[] = [];
    for (let rows = 1; rows <= 40; rows++) {
      for (const columns of [20, 33, 60, 80, 100, 160]) {
        const lines = liveFrame(view, { rows, columns }, PLAIN);
        const widest = Math.max(0, ...lines.map(displayWidth));
        if (lines.length > Math.floor(rows / 3) || widest > columns - 1) overflows.push(`${columns}×${rows}: ${lines.length} lines, ${widest} columns`);
      }
    }
    expect(overflows).toEqual([]);
  });

  it('falls back to fewer lines on a short screen: the footer first, then the suites, then a count of those left out', () => {
    const view = busyView();
    expect(liveFrame(view, { rows: 2, columns: 80 }, PLAIN)).toEqual([]);
    expect(liveFrame(view, { rows: 3, columns: 80 }, PLAIN)).toEqual(['55 operations running, 8.0s since the run started']);
    const three = liveFrame(view, { rows: 9, columns: 80 }, PLAIN);
    expect(three).toHaveLength(3);
    expect(three[0]).toMatch(/^⠋ scenario\/burst /);
    expect(three[1]).toBe('… and 2 more suites running');
    expect(three[2]).toBe('55 operations running, 8.0s since the run started');
    const six = liveFrame(view, { rows: 18, columns: 80 }, PLAIN);
    expect(six.slice(3, 5)).toEqual(['  scenario/plan-and-apply: 16 operations, 16 in progress, oldest 7.0s', '… and 2 more groups of operations']);
  });

  it('shows every operation on its own line, with no group line, when they all fit', () => {
    const view: LiveView = { ...busyView(), operations: [operation(1, 'scenario/burst', 1_500), operation(2, undefined, 500)] };
    const lines = liveFrame(view, { rows: 30, columns: 100 }, PLAIN);
    expect(lines).toHaveLength(6);
    expect(lines[3]).toMatch(/^⠋ apply shop-db-1 {2}0000…e2a1 {2}1\.5s \/ PT5M/);
    expect(lines[4]).toMatch(/^⠋ apply shop-db-2 /);
    expect(lines[5]).toBe('2 operations running, 8.0s since the run started');
  });

  it('says above the footer what the run waits for and when it ends, a line each, the end kept longer on a short screen', () => {
    const waiting = {
      what: '55 operations (38 of scenario/burst, 16 of scenario/plan-and-apply, property/model-based-runs apply shop-db-200 0000…e2a1), then the restart',
      end: 'ends by 10:42:07 at the latest, in 34m12s (then restart PT15M)',
    };
    const view: LiveView = { ...busyView(), waiting };
    const lines = liveFrame(view, { rows: 50, columns: 100 }, PLAIN);
    expect(lines.slice(-3)).toEqual([
      'waiting for 55 operations (38 of scenario/burst, 16 of scenario/plan-and-apply, property/model-bas…',
      waiting.end,
      '55 operations running, 8.0s since the run started',
    ]);
    expect(lines.filter((line) => line.startsWith('⠋ apply'))).toHaveLength(5);
    expect(liveFrame(view, { rows: 9, columns: 100 }, PLAIN)).toEqual(lines.slice(-3));
    expect(liveFrame(view, { rows: 6, columns: 100 }, PLAIN)).toEqual(lines.slice(-2));
    expect(liveFrame(view, { rows: 3, columns: 100 }, PLAIN)).toEqual(lines.slice(-1));
    const overflows: string[] = [];
    for (let rows = 1; rows <= 40; rows++) {
      for (const columns of [20, 33, 60, 80, 100, 160]) {
        const frame = liveFrame(view, { rows, columns }, PLAIN);
        const widest = Math.max(0, ...frame.map(displayWidth));
        if (frame.length > Math.floor(rows / 3) || widest > columns - 1) overflows.push(`${columns}×${rows}: ${frame.length} lines, ${widest} columns`);
      }
    }
    expect(overflows).toEqual([]);
  });

  it('draws nothing when nothing runs, or on a screen too narrow to say anything', () => {
    expect(liveFrame({ ...busyView(), suites: [], operations: [] }, { rows: 30, columns: 100 }, PLAIN)).toEqual([]);
    expect(liveFrame(busyView(), { rows: 30, columns: 10 }, PLAIN)).toEqual([]);
  });

  it('keeps wide characters within the columns', () => {
    const view: LiveView = { ...busyView(), suites: [{ name: '服务器'.repeat(30), startedAt: NOW, done: 0 }], operations: [] };
    const [line] = liveFrame(view, { rows: 15, columns: 41 }, PLAIN);
    expect(displayWidth(line!)).toBeLessThanOrEqual(40);
    expect(line!.endsWith('…')).toBe(true);
  });
});
