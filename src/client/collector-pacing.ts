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
 * Counts the body bytes a client read and asks V8 for a full collection after every {@link COLLECT_AFTER_BYTES},
 * so that the socket buffers behind bodies already hashed and dropped are freed while the run goes on.
 */
export class CollectorPacing {
  private unread = COLLECT_AFTER_BYTES;
  private collect: Collect | undefined | null = null;

  constructor(private readonly limit = COLLECT_AFTER_BYTES) {
    this.unread = limit;
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
export const COLLECTOR_PACING = new CollectorPacing();
