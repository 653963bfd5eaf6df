import type { Millis } from '../core/time.js';
import type { ObservationProgress } from './observation-news.js';

/** A log gets a summary at most this often, and only when something changed since the last one. */
export const SUMMARY_EVERY_MS = 30_000;
/** An observer with nothing new says so once per this long, so that a quiet log still shows it is alive. */
export const IDLE_EVERY_MS = 10 * 60_000;

/** A summary of what changed, or an idle line: nothing changed for `quietForMs`. */
export type SummaryDue = { kind: 'summary' } | { kind: 'idle'; quietForMs: number };

/** What a summary compares: counts that change when traffic passes, an operation ends or a rule breaks. */
function changeKey(progress: ObservationProgress): string {
  const broken = Object.values(progress.broken).reduce((sum, count) => sum + count, 0);
  const { followed, open, ended } = progress.operations;
  return `${progress.exchanges}|${followed}|${open}|${ended}|${broken}|${progress.upstream.answering}`;
}

/** The key of an observation that has seen nothing yet. */
const NOTHING_YET = '0|0|0|0|0|true';

/**
 * Decides when a log gets a summary line: every {@link SUMMARY_EVERY_MS} when the counts changed, else nothing,
 * but one idle line per {@link IDLE_EVERY_MS} without a line. Its clock is the one it is given.
 */
export class SummaryPacer {
  private lastAt: Millis;
  /** When a change was last seen: the latest summary, or the start. */
  private changedAt: Millis;
  private lastKey: string;

  constructor(startedAt: Millis) {
    this.lastAt = startedAt;
    this.changedAt = startedAt;
    this.lastKey = NOTHING_YET;
  }

  /** What is due at `now` with these counts, if anything; what it returns counts as printed. */
  due(now: Millis, progress: ObservationProgress): SummaryDue | undefined {
    const since = now - this.lastAt;
    if (since < SUMMARY_EVERY_MS) return undefined;
    const key = changeKey(progress);
    if (key !== this.lastKey) {
      this.lastKey = key;
      this.lastAt = now;
      this.changedAt = now;
      return { kind: 'summary' };
    }
    if (since < IDLE_EVERY_MS) return undefined;
    this.lastAt = now;
    return { kind: 'idle', quietForMs: now - this.changedAt };
  }
}
