import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgress, type Progress, type ProgressStream } from '../../src/report/progress.js';
import { FakeScreen } from './fake-screen.js';

const SPINNER_LINE = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;
const FOOTER = /operations? running, .* since the run started/;

/** A row of the live block: a suite's or an operation's line, a group's, what is waited for, or the footer. */
function isBlockRow(row: string): boolean {
  return SPINNER_LINE.test(row) || FOOTER.test(row) || /^(waiting for |ends by |… and |  \S+: \d+ operations?, )/.test(row);
}

function idOf(n: number): string {
  return `${String(n).padStart(8, '0')}-9b7e-4c6d-a5f4-3e2b1d0ce2a1`;
}

interface Run {
  screen: FakeScreen;
  progress: Progress;
  tick: (ms: number) => void;
}

function runOn(columns: number, rows: number): Run {
  let now = 1_750_000_000_000;
  const screen = new FakeScreen(columns, rows);
  const progress = createProgress(screen as unknown as ProgressStream, { color: true, startedAt: now, now: () => now });
  return {
    screen,
    progress,
    tick: (ms) => {
      now += ms;
      vi.advanceTimersByTime(ms);
    },
  };
}

/** A default run at its peak: three suites, seventy operations in flight, log lines written between redraws. */
function busyRun({ screen, progress, tick }: Run): void {
  progress.message('provisioner-conformance: playing the control plane against http://127.0.0.1:45395 (4 change sets, poll interval PT1S)');
  for (const [suite, total] of [['scenario/burst', 50], ['scenario/plan-and-apply', 12], ['property/model-based-runs', 30]] as const) progress.suiteStarted(suite, total);
  for (let i = 0; i < 70; i++) {
    const suite = i < 40 ? 'scenario/burst' : i < 56 ? 'scenario/plan-and-apply' : `property/model-based-runs#1.${i}`;
    progress.operationAccepted(idOf(i), 'kubernetes-namespace', i % 2 === 0 ? 'plan' : 'apply', 60_000, suite);
    progress.operationRead(idOf(i), 'Step 1 of 1: checking how to create test-cache in the cluster of the shop');
    tick(30);
  }
  for (let i = 0; i < 20; i++) {
    progress.operationEnded(idOf(i), 'the control plane would record succeeded after 1.0s, its operation cut by nothing at all');
    progress.casesDone('scenario/burst', i + 1, 50);
    tick(100);
    expect(screen.screen().filter(isBlockRow).length).toBeLessThanOrEqual(Math.floor(screen.rows / 3));
  }
}

describe('the live display on a terminal of fixed size', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps the block to a third of a 100×30 screen, so at least ten log lines stay in sight', () => {
    const run = runOn(100, 30);
    busyRun(run);
    const shown = run.screen.screen();
    const block = shown.filter(isBlockRow);
    expect(block.length).toBe(10);
    expect(shown.length - block.length).toBeGreaterThanOrEqual(19);
    expect(block).toContainEqual(expect.stringMatching(/^ {2}scenario\/burst: 40 operations, 20 in progress, oldest /));
    expect(block.at(-1)).toMatch(/^50 operations running, /);
    // A line that stays brings the block back below it at once, not at the next tick.
    run.progress.operationEnded(idOf(20), 'the control plane would record succeeded after 1.0s');
    expect(run.screen.screen().filter(isBlockRow)).toHaveLength(10);
    expect(run.screen.screen().at(-11)).toMatch(/^• plan kubernetes-namespace {2}0000…e2a1 {2}the control plane would record succeeded/);
    run.progress.stop();
  });

  it('leaves no frame behind once stopped: the scrollback holds the log lines, never a line of the block', () => {
    const run = runOn(100, 30);
    busyRun(run);
    run.progress.stop();
    run.screen.write('Rules\n✓ pass  answer.status\n');
    const history = run.screen.history();
    expect(history.filter(isBlockRow)).toEqual([]);
    expect(history.filter((row) => row.startsWith('• plan kubernetes-namespace') || row.startsWith('• apply kubernetes-namespace'))).toHaveLength(20);
    expect(history.slice(-2)).toEqual(['Rules', '✓ pass  answer.status']);
  });

  it('erases a block that starts on the top row without pushing it to the scrollback', () => {
    const run = runOn(60, 12);
    run.progress.suiteStarted('scenario/plan-and-apply', 12);
    for (let i = 0; i < 8; i++) run.progress.operationAccepted(idOf(i), 'postgres', 'apply', 60_000, 'scenario/plan-and-apply');
    run.tick(100);
    expect(run.screen.screen()[0]).toMatch(SPINNER_LINE);
    run.progress.operationEnded(idOf(0), 'the control plane would record succeeded after 1.0s');
    run.tick(100);
    run.progress.stop();
    expect(run.screen.history().filter(isBlockRow)).toEqual([]);
    expect(run.screen.history()).toEqual([expect.stringMatching(/^• apply postgres {2}0000…e2a1 {2}the control plane would/), expect.stringMatching(/^ {6}/)]);
  });

  it('wraps log lines between words itself, so that the terminal wraps no row but a command to copy', () => {
    const run = runOn(60, 20);
    busyRun(run);
    run.progress.suiteEnded('property/model-based-runs', '30 of 30 cases: broke operation.no-in-progress-after-final and operation.final-stable; replay with --property property/model-based-runs --seed 1 --path 0:0:4');
    run.progress.stop();
    // The replay command's row, 79 columns: the terminal wraps it once, and copies it back as one line.
    expect(run.screen.terminalWraps).toBe(1);
    const history = run.screen.history();
    const start = history.findIndex((row) => row.startsWith('• property/model-based-runs'));
    const command = history.findIndex((row) => row.trim().startsWith('replay:'));
    expect(command - start).toBeGreaterThan(1);
    for (const row of history.slice(0, command)) expect(row.length).toBeLessThanOrEqual(59);
    // Read again as one line, the wrapped summary says all it said: nothing was cut.
    expect(history.slice(start, command).join(' ').replace(/ {2,}/g, ' ')).toContain('30 of 30 cases: broke operation.no-in-progress-after-final and operation.final-stable');
    // (the screen keeps rows without their trailing spaces: the one the wrap fell on is gone)
    expect(history.slice(command, command + 2).join('').replace(/ /g, '')).toBe('replay:--propertyproperty/model-based-runs--seed1--path0:0:4');
  });

  it('draws nothing but log lines on a screen too short for a block', () => {
    const run = runOn(80, 2);
    busyRun(run);
    expect(run.screen.screen().filter(isBlockRow)).toEqual([]);
    run.progress.stop();
  });
});
