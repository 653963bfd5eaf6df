import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Bytes of response bodies read between two collections the kit asks for. undici hands a body over as views of
 * the socket's reads (a 64 KiB buffer each, outside V8's heap), and V8 frees such buffers only once they have
 * grown some 64 MB past its last collection: a target answering large bodies fast (a 400 KB body to each of
 * thousands of reads a second) held 60 to 100 MB of dead buffers. A collection after this many bytes bounds
 * them (after 16 MB, a target answering bodies past the 1 MB limit still kept a run some 13 MB higher); ordinary
 * answers of a few hundred bytes reach it after ten thousand reads or more.
 */
export const COLLECT_AFTER_BYTES = 4 * 1024 * 1024;

/**
 * Exchanges between two full collections. Each exchange leaves a little garbage that outlives the young
 * generation (its timers, signals and request state), which only a full collection frees; V8 lets it pile up
 * to several times the live heap first: a run of 40,000 small reads was seen at 68 MB of old space of which
 * 21 MB was live. A collection of a heap that size takes tens of milliseconds, a few times a minute.
 */
export const COLLECT_EVERY_EXCHANGES = 5_000;

type Collect = () => void;

/** V8's collector, from the `gc` a fresh context is given while --expose-gc is on; the flag is turned off again. */
function exposedCollector(): Collect | undefined {
  const global = (globalThis as { gc?: unknown }).gc;
  if (typeof global === 'function') return global as Collect;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as Collect) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Counts the body bytes a client read and the exchanges it ended, and asks V8 for a full collection after every
 * {@link COLLECT_AFTER_BYTES} and every {@link COLLECT_EVERY_EXCHANGES}, so that the socket buffers behind bodies
 * already hashed and dropped, and what each exchange left, are freed while the run goes on.
 */
export class CollectionSchedule {
  private unread: number;
  private exchangesLeft: number;
  private collect: Collect | undefined | null = null;

  constructor(
    private readonly limit = COLLECT_AFTER_BYTES,
    private readonly everyExchanges = COLLECT_EVERY_EXCHANGES,
  ) {
    this.unread = limit;
    this.exchangesLeft = everyExchanges;
  }

  /** Counts an exchange ended; collects every {@link COLLECT_EVERY_EXCHANGES}. Returns whether it collected. */
  exchangeEnded(): boolean {
    if (--this.exchangesLeft > 0) return false;
    this.exchangesLeft = this.everyExchanges;
    return this.collectNow();
  }

  /** Counts `bytes` read; collects when the limit is passed. Returns whether it collected. */
  read(bytes: number): boolean {
    this.unread -= bytes;
    if (this.unread > 0) return false;
    this.unread = this.limit;
    return this.collectNow();
  }

  /**
   * A full collection now, where much has just become garbage at once: between the outputs of a run, each of
   * which leaves its text and copies behind, so that the next one does not grow the heap on top of them.
   */
  collectNow(): boolean {
    // The collector is fetched at the first need: a run of small answers never turns the flag on.
    if (this.collect === null) this.collect = exposedCollector();
    if (this.collect === undefined) return false;
    this.collect();
    return true;
  }
}

/** One count for the whole process: every client's reads leave their buffers in the same heap. */
export const COLLECTION_SCHEDULE = new CollectionSchedule();
