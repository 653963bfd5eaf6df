import { now, sleep } from '../../../src/client/clock.js';
import { endingOf, type PollEnding } from '../../../src/poller/poller.js';
import type { Exchange } from '../../../src/transcript/exchange.js';
import type { TrackedOperation } from './model.js';
import { hasEnded } from './model.js';

/** What the reads while waiting need of the case: its clock of polls, and how to send one read of an operation. */
export interface WaitingReadsSettings {
  pollIntervalMs: number;
  maxOperationDurationMs: number;
  /** Sends one read of the operation as the control plane's poll; the case counts it among its requests in flight. */
  read(op: TrackedOperation): Promise<Exchange>;
  /** Notes in the transcript that the control plane's polling of `op` ended, and how. */
  ended(op: TrackedOperation, ending: PollEnding): void;
  /** Tells the case's lines what a read while waiting got, so that a counterexample shows every read it made. */
  heard(op: TrackedOperation, read: Exchange): void;
}

/** How the control plane's following of an operation ended at one of these reads. */
export interface WaitingEnding extends PollEnding {
  read: Exchange;
}

interface Watched {
  op: TrackedOperation;
  /** When the case or these reads last sent a read of it (epoch ms). */
  lastReadAt: number;
  /** The case follows it with its own poller, which reads at the poll interval itself. */
  following: boolean;
  /** Reads of it the case itself has in flight: a read is due only a poll interval after the last has ended. */
  caseReads: number;
  /** A read of these in flight: the case's own reads wait for it, so that the two never overlap. */
  inFlight?: Promise<unknown>;
  /** The read on which the control plane would have stopped reading it, and what it concludes. */
  ending?: WaitingEnding;
}

/**
 * The control plane reads every operation it has in progress at the poll interval, whatever else it does. A case
 * does not: an apply of it may wait minutes for the lock of its application and environment (the applies before
 * it) before the case reads its other operations again. These reads fill such gaps: while the case waits so, an
 * operation of it that no read reached for a poll interval is read then, as the control plane would, until a
 * read ends its following (a final answer, a 404, an answer it cannot use) or its deadline passes. A final answer the work gave in seconds is then seen within a poll interval, and a deadline
 * rule never blames the provisioner for a wait the case made.
 *
 * They change nothing the case's model knows, so the commands a case runs depend on its commands alone; a follow
 * of an operation whose end these reads saw ends at once with what they saw.
 */
export class ReadsWhileWaiting {
  private readonly watched = new Map<TrackedOperation, Watched>();
  private readonly done = new AbortController();
  /** One signal for every wait of these reads, made on the first: each AbortSignal.any lives until a full collection. */
  private waitSignal: AbortSignal | undefined;
  private failure: { error: unknown } | undefined;
  /** How many waits of the case on something not its own (the lock of an apply) are under way. */
  private blocked = 0;
  /** Resolves when the case next starts such a wait. */
  private blockStarts = nextStart();

  constructor(
    private readonly settings: WaitingReadsSettings,
    /** Aborts when the case is stopped: no read is started after it. */
    private readonly stopped: () => AbortSignal,
  ) {}

  /** Starts reading `op`, accepted just now, whenever no read reached it for a poll interval. */
  watch(op: TrackedOperation): void {
    if (this.done.signal.aborted || this.watched.has(op)) return;
    const watched: Watched = { op, lastReadAt: now(), following: false, caseReads: 0 };
    this.watched.set(op, watched);
    // A failure of the kit's own (the client never throws for what the provisioner does) is the case's to raise.
    this.keepReading(watched).catch((error: unknown) => {
      this.failure ??= { error };
    });
  }

  /** What went wrong in the kit while reading, if anything: the case raises it once it has finished. */
  get failed(): { error: unknown } | undefined {
    return this.failure;
  }

  /**
   * The case reads `op` itself: while its reads are in flight, and a poll interval after, none is due. They go out
   * once a read of these has ended, so that a counterexample's reads "at once" are the case's alone, whatever the load.
   */
  async readByCase<T>(op: TrackedOperation, reading: () => Promise<T>): Promise<T> {
    const watched = this.watched.get(op);
    if (!watched) return reading();
    watched.caseReads += 1;
    try {
      await watched.inFlight?.catch(() => undefined);
      return await reading();
    } finally {
      watched.caseReads -= 1;
      watched.lastReadAt = now();
    }
  }

  /** The read that ended the control plane's following of `op`, when these reads saw it. */
  endingOf(op: TrackedOperation): WaitingEnding | undefined {
    return this.watched.get(op)?.ending;
  }

  /**
   * The case waits on something that is not its own step: an apply waiting for the lock of its application and
   * environment, for as long as the applies before it take (minutes, against real work). Only then are reads
   * due: a case's own steps read its operations often enough, and reads of the kit's own timing between them
   * would make what a counterexample shows depend on the machine's load.
   */
  async whileBlocked<T>(waiting: Promise<T>): Promise<T> {
    this.blocked += 1;
    this.blockStarts.resolve();
    try {
      return await waiting;
    } finally {
      this.blocked -= 1;
      if (this.blocked === 0) this.blockStarts = nextStart();
    }
  }

  /** Leaves `op` to the case's own poller while `following` runs. */
  async whileFollowed<T>(op: TrackedOperation, following: () => Promise<T>): Promise<T> {
    const watched = this.watched.get(op);
    if (watched) watched.following = true;
    try {
      await watched?.inFlight?.catch(() => undefined);
      return await following();
    } finally {
      if (watched) {
        watched.following = false;
        watched.lastReadAt = now();
      }
    }
  }

  /** Stops every read still to come: the case has followed its operations to their end. */
  close(): void {
    this.done.abort();
  }

  private async keepReading(watched: Watched): Promise<void> {
    const { pollIntervalMs, maxOperationDurationMs } = this.settings;
    const deadline = watched.op.accepted.endedAt + maxOperationDurationMs;
    const signal = (this.waitSignal ??= AbortSignal.any([this.done.signal, this.stopped()]));
    for (;;) {
      if (this.blocked === 0) {
        // Nothing is due while the case goes through its own steps: wait until it waits on something else.
        await Promise.race([this.blockStarts.promise, sleep(deadline - now(), signal)]);
        if (signal.aborted || hasEnded(watched.op) || now() >= deadline) return;
        continue;
      }
      await sleep(Math.min(watched.lastReadAt + pollIntervalMs, deadline) - now(), signal);
      // Past the deadline the control plane reads no more: the case's follow notes that it gave up there.
      if (signal.aborted || hasEnded(watched.op) || now() >= deadline) return;
      // The case's poller reads it meanwhile, or the case reads it itself: the next read is due later.
      if (watched.following || watched.caseReads > 0) watched.lastReadAt = now();
      if (now() < watched.lastReadAt + pollIntervalMs) continue;
      watched.lastReadAt = now();
      const reading = this.settings.read(watched.op);
      watched.inFlight = reading;
      const read = await reading;
      watched.inFlight = undefined;
      this.settings.heard(watched.op, read);
      const ending = endingOf([read], watched.op.accepted);
      // A follow that began meanwhile reads on and notes the end itself.
      if (ending && !watched.following) {
        watched.ending = { ...ending, read };
        this.settings.ended(watched.op, ending);
      }
      if (ending) return;
    }
  }
}

/** A promise and its resolver: resolved when the case next starts waiting on something not its own. */
function nextStart(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
