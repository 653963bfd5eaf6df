import { SendSlots } from './send-slots.js';

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

/** Turns for long reads: slots taken as the client's calls take theirs, in the order they were asked for. */
export class LongReadTurns {
  private readonly slots: SendSlots;

  constructor(readonly atOnce = LONG_READS_AT_ONCE) {
    this.slots = new SendSlots(atOnce);
  }

  /** Turns held now. */
  get held(): number {
    return this.slots.taken;
  }

  /** Reads waiting for a turn now. */
  get queued(): number {
    return this.slots.queued;
  }

  /** A claim for one read. */
  turn(): LongReadTurn {
    let asked = false;
    let ended = false;
    let giveBack: (() => void) | undefined;
    return {
      ask: () => {
        if (asked) return undefined;
        asked = true;
        giveBack = this.slots.tryTake();
        if (giveBack !== undefined) return undefined;
        return new Promise<void>((granted) => {
          void this.slots.take().then((given) => {
            // A read that ended while it waited gives its turn on to the next at once.
            if (ended) return given();
            giveBack = given;
            granted();
          });
        });
      },
      end: () => {
        ended = true;
        giveBack?.();
        giveBack = undefined;
      },
    };
  }
}

/** One set of turns for the whole process: every client's reads hold memory of the same process. */
export const LONG_READ_TURNS = new LongReadTurns();
