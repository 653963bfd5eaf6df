/**
 * Reads that may hold more than the first 64 KiB of a body (what the body store keeps whole) at once, in the
 * whole process. A body whose length is not known ahead (chunked, or coded) must be held until it ends or
 * passes the read limit: with some 70 reads in flight against a target whose every answer is a long chunked
 * body, each held up to the 1 MiB limit at the same moment (70 MB), and the process keeps what its busiest
 * moment took. Past a body's first 64 KiB, a read waits for a turn, its stream paused (the rest waits in the
 * socket); a turn is held until the body is read and stored. Reads of ordinary answers never get that far.
 */
export const LONG_READS_AT_ONCE = 8;

/** One read's claim on a turn: asked for at most once, then given back once (or withdrawn if never granted). */
export interface LongReadTurn {
  /** Asks for the turn; resolves at once when one is free, else once one is given back. */
  ask(): Promise<void> | undefined;
  /** Gives the turn back, or withdraws the ask that was not granted yet. Safe to call more than once. */
  end(): void;
}

/** Turns for long reads, granted in the order they were asked for. */
export class LongReadTurns {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly atOnce = LONG_READS_AT_ONCE) {
    this.free = Math.max(1, atOnce);
  }

  /** Turns held now. */
  get held(): number {
    return Math.max(1, this.atOnce) - this.free;
  }

  /** Reads waiting for a turn now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** A claim for one read. */
  turn(): LongReadTurn {
    let state: 'idle' | 'waiting' | 'held' | 'ended' = 'idle';
    let grant: (() => void) | undefined;
    return {
      ask: () => {
        if (state !== 'idle') return undefined;
        if (this.free > 0) {
          this.free--;
          state = 'held';
          return undefined;
        }
        state = 'waiting';
        return new Promise<void>((resolve) => {
          grant = () => {
            state = 'held';
            resolve();
          };
          this.waiting.push(grant);
        });
      },
      end: () => {
        if (state === 'waiting') {
          const at = this.waiting.indexOf(grant!);
          if (at !== -1) this.waiting.splice(at, 1);
        } else if (state === 'held') {
          this.giveBack();
        }
        state = 'ended';
      },
    };
  }

  private giveBack(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** One set of turns for the whole process: every client's reads hold memory of the same process. */
export const LONG_READ_TURNS = new LongReadTurns();
