import { describe, expect, it } from 'vitest';
import type { ObservationProgress } from '../../src/observe/observation-news.js';
import { IDLE_EVERY_MS, SUMMARY_EVERY_MS, SummaryPacer } from '../../src/observe/summary-pacer.js';

const START = 1_000_000;
const progress = (exchanges: number, broken: Record<string, number> = {}): ObservationProgress => ({
  startedAt: START,
  exchanges,
  operations: { followed: 0, open: 0, ended: 0 },
  broken,
  upstream: { answering: true },
});

describe('the log summary pacer, on a fake clock', () => {
  it('prints nothing for an idle proxy until the idle period, then one idle line per period', () => {
    const pacer = new SummaryPacer(START);
    for (let at = START; at < START + IDLE_EVERY_MS; at += 5_000) expect(pacer.due(at, progress(0))).toBeUndefined();
    expect(pacer.due(START + IDLE_EVERY_MS, progress(0))).toEqual({ kind: 'idle', quietForMs: IDLE_EVERY_MS });
    expect(pacer.due(START + IDLE_EVERY_MS + SUMMARY_EVERY_MS, progress(0))).toBeUndefined();
    expect(pacer.due(START + 2 * IDLE_EVERY_MS, progress(0))).toEqual({ kind: 'idle', quietForMs: 2 * IDLE_EVERY_MS });
  });

  it('prints a summary at most every 30 s, and only when something changed', () => {
    const pacer = new SummaryPacer(START);
    expect(pacer.due(START + 5_000, progress(3))).toBeUndefined();
    expect(pacer.due(START + SUMMARY_EVERY_MS - 1, progress(3))).toBeUndefined();
    expect(pacer.due(START + SUMMARY_EVERY_MS, progress(3))).toEqual({ kind: 'summary' });
    expect(pacer.due(START + SUMMARY_EVERY_MS + 5_000, progress(9))).toBeUndefined();
    expect(pacer.due(START + 2 * SUMMARY_EVERY_MS, progress(9))).toEqual({ kind: 'summary' });
    // Unchanged: nothing at the next interval.
    expect(pacer.due(START + 3 * SUMMARY_EVERY_MS, progress(9))).toBeUndefined();
    // A rule broken by a deadline, no traffic: a change all the same.
    expect(pacer.due(START + 4 * SUMMARY_EVERY_MS, progress(9, { 'operation.deadline': 1 }))).toEqual({ kind: 'summary' });
    // Idle is counted from the last change.
    expect(pacer.due(START + 4 * SUMMARY_EVERY_MS + IDLE_EVERY_MS, progress(9, { 'operation.deadline': 1 }))).toEqual({ kind: 'idle', quietForMs: IDLE_EVERY_MS });
  });
});
