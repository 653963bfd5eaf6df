import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Millis } from '../core/time.js';
import { keepItSmallAfterAThreadStarted } from '../core/young-generation.js';
import { withoutParsedBody } from '../transcript/stored-response.js';
import { messageOf } from '../errors.js';
import type { FromJudgeWorker, JudgeWorkerData, ToJudgeWorker } from './judge-worker-messages.js';
import type { ObservedExchange } from './recorder.js';
import { judgedOperations, NO_OPERATIONS, sameOperations, type JudgingNews } from './judged-progress.js';
import { RuleBreakNews } from './rule-breaks.js';
import type { SeenChangeSet } from './seen-change-set.js';
import { StreamingJudge, type JudgeTally, type StreamingJudgeSettings } from './streaming-judge.js';

/** The streaming judge seen from the proxy's thread: exchanges handed over, its tally asked for. */
export interface Judging {
  /** Where the judges run. */
  readonly where: 'worker thread' | 'proxy thread';
  /** Hands over one exchange holding `bytes` (see `observedBytes`), in the order the traffic had them; never throws, never waits. */
  add(exchange: ObservedExchange, bytes?: number): void;
  /** Counts a request that is none of the contract's. */
  other(): void;
  /** Ends, at their deadline, the operations that had no final answer by `at`. */
  sweep(at: Millis): void;
  /** Everything judged so far, once what was handed over before is judged; with `finishAt`, the observation ends there first. */
  tally(finishAt?: Millis): Promise<JudgeTally>;
  /** Exchanges handed over and not judged yet. */
  readonly waiting: number;
  /** Bytes the exchanges handed over and not judged yet hold, as they were told by `add`. */
  readonly waitingBytes: number;
  /** Exchanges handed over that were never judged whole: their judging failed, or the worker stopped with them or before them. */
  readonly lost: number;
  /** Stops the judges (the worker thread ends); what was not asked for by then is dropped. */
  close(): Promise<void>;
}

export interface JudgingHooks {
  onChangeSet?: (changeSet: SeenChangeSet) => void;
  /** Hears a failure of the judging side; the traffic never does. */
  onFailure: (what: string, error: unknown) => void;
  /** Hears the rules broken and how far the operations got, as the judges get there. */
  news?: JudgingNews;
}


/** The worker's file, built beside this module (dist). Absent when this module runs from its TypeScript source. */
export const BUILT_JUDGE_WORKER = new URL('./judge-worker.js', import.meta.url);

/**
 * A worker that says nothing for this long while it has work is taken for stuck (a judge in an endless loop)
 * and stopped: its tally is never waited for longer, and the end of the observation never hangs on it.
 */
export const STUCK_MS = 60_000;

/**
 * Starts the judges: on a worker thread from `workerFile` when that file exists, so that judging never takes
 * the proxy's thread; else on this thread (a test running the sources, or `false` asked for).
 */
export function startJudging(settings: StreamingJudgeSettings, hooks: JudgingHooks, workerFile: URL | false = BUILT_JUDGE_WORKER, stuckMs = STUCK_MS): Judging {
  if (workerFile !== false && existsSync(fileURLToPath(workerFile))) {
    try {
      return new WorkerJudging(workerFile, settings, hooks, stuckMs);
    } catch {
      // No thread could be started (a resource limit): the judges run here, and the report says where they ran.
    }
  }
  return new ThreadJudging(settings, hooks);
}

/** The judges on the proxy's own thread: each exchange judged when handed over. */
class ThreadJudging implements Judging {
  readonly where = 'proxy thread';
  readonly waiting = 0;
  readonly waitingBytes = 0;
  lost = 0;
  private readonly judge: StreamingJudge;
  private readonly news: RuleBreakNews | undefined;
  private toldOperations = NO_OPERATIONS;

  constructor(
    settings: StreamingJudgeSettings,
    private readonly hooks: JudgingHooks,
  ) {
    const news = hooks.news && new RuleBreakNews(hooks.news.showSecrets);
    this.news = news;
    this.judge = new StreamingJudge({
      ...settings,
      ...(hooks.onChangeSet && { onChangeSet: hooks.onChangeSet }),
      ...(news && { onJudged: (results, slice) => news.judged(results, slice) }),
    });
  }

  add(exchange: ObservedExchange): void {
    try {
      this.judge.add(exchange);
    } catch (error) {
      this.lost += 1;
      this.hooks.onFailure('an exchange could not be judged', error);
    }
    this.tellNews();
  }

  private tellNews(): void {
    const hears = this.hooks.news;
    if (!hears || !this.news) return;
    try {
      const breaks = this.news.take();
      if (breaks) hears.breaks(breaks);
      const operations = judgedOperations(this.judge.traffic());
      if (sameOperations(operations, this.toldOperations)) return;
      this.toldOperations = operations;
      hears.operations(operations);
    } catch {
      // the lines told while observing are a courtesy: they never stop the judges
    }
  }

  other(): void {
    this.judge.other();
  }

  sweep(at: Millis): void {
    try {
      this.judge.sweep(at);
    } catch (error) {
      this.hooks.onFailure('operations could not be checked against their deadline', error);
    }
    this.tellNews();
  }

  async tally(finishAt?: Millis): Promise<JudgeTally> {
    if (finishAt !== undefined) this.judge.finish(finishAt);
    this.tellNews();
    return this.judge.snapshot();
  }

  async close(): Promise<void> {}
}

/**
 * The judges on a worker thread. Exchanges are posted to it (structured clones: plain data) and it tells back
 * how many it took, so that the queue toward it is known. A worker that stops is told once, as a failure;
 * from then on what is handed over is counted lost, and a tally asked for is the last one it gave.
 */
class WorkerJudging implements Judging {
  readonly where = 'worker thread';
  lost = 0;
  private readonly worker: Worker;
  private posted = 0;
  private taken = 0;
  /** The bytes of each message posted and not taken yet, oldest first from `oldest`: the worker takes them in order. */
  private sizes: number[] = [];
  private oldest = 0;
  private heldBytes = 0;
  private stopped: string | undefined;
  private closing = false;
  private lastTally: JudgeTally | undefined;
  private nextId = 1;
  private readonly asked = new Map<number, { resolve: (tally: JudgeTally) => void; reject: (error: Error) => void }>();
  /** When the worker last said something, or was last given work while it had none. */
  private heardAt = performance.now();
  private readonly watch: NodeJS.Timeout;

  constructor(
    file: URL,
    private readonly settings: StreamingJudgeSettings,
    private readonly hooks: JudgingHooks,
    stuckMs: number,
  ) {
    const { onChangeSet: _onChangeSet, onJudged: _onJudged, ...plain } = settings;
    const judgeWorker: JudgeWorkerData = {
      settings: plain,
      keepChangeSets: hooks.onChangeSet !== undefined,
      ...(hooks.news && { tellNews: { showSecrets: hooks.news.showSecrets } }),
    };
    this.worker = new Worker(file, { workerData: { judgeWorker } });
    this.worker.once('online', () => keepItSmallAfterAThreadStarted());
    this.worker.on('message', (message: FromJudgeWorker) => this.heard(message));
    this.worker.on('error', (error) => this.died(`an uncaught error: ${messageOf(error)}`));
    this.worker.on('messageerror', (error) => this.died(`a message from it could not be read: ${messageOf(error)}`));
    this.worker.on('exit', (code) => this.died(`it exited with code ${code}`));
    this.watch = setInterval(() => {
      if (this.busy() && performance.now() - this.heardAt > stuckMs) {
        this.died(`it said nothing for ${stuckMs / 1000} s while it had work`);
        void this.worker.terminate();
      }
    }, Math.min(stuckMs, 5000));
    this.watch.unref();
  }

  private busy(): boolean {
    return this.posted > this.taken || this.asked.size > 0;
  }

  get waiting(): number {
    return this.posted - this.taken;
  }

  get waitingBytes(): number {
    return this.heldBytes;
  }

  add(exchange: ObservedExchange, bytes = 0): void {
    if (this.post({ kind: 'exchange', exchange: withoutParsedBody(exchange) })) this.postedOne(bytes);
    else this.lost += 1;
  }

  other(): void {
    if (this.post({ kind: 'other' })) this.postedOne(0);
  }

  private postedOne(bytes: number): void {
    this.posted += 1;
    this.sizes.push(bytes);
    this.heldBytes += bytes;
  }

  /** The worker took `count` more messages, the oldest: what they held is no longer waiting. */
  private took(count: number): void {
    this.taken += count;
    const end = Math.min(this.oldest + count, this.sizes.length);
    for (; this.oldest < end; this.oldest++) this.heldBytes -= this.sizes[this.oldest]!;
    // Dropped from the front now and then, not at each take: a long backlog is not copied over and over.
    if (this.oldest >= 1024 && this.oldest * 2 >= this.sizes.length) {
      this.sizes = this.sizes.slice(this.oldest);
      this.oldest = 0;
    }
  }

  sweep(at: Millis): void {
    this.post({ kind: 'sweep', at });
  }

  tally(finishAt?: Millis): Promise<JudgeTally> {
    if (this.stopped !== undefined || this.closing) return Promise.resolve(this.fallback());
    const id = this.nextId++;
    return new Promise<JudgeTally>((resolve, reject) => {
      this.asked.set(id, { resolve, reject });
      if (!this.post({ kind: 'tally', id, ...(finishAt !== undefined && { finishAt }) })) {
        this.asked.delete(id);
        resolve(this.fallback());
      }
    });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.watch);
    for (const { resolve } of this.asked.values()) resolve(this.fallback());
    this.asked.clear();
    await this.worker.terminate();
  }

  /** Posts to a worker still running; false when the message could not go (it stopped, or the message cannot be cloned). */
  private post(message: ToJudgeWorker): boolean {
    if (this.stopped !== undefined || this.closing) return false;
    if (!this.busy()) this.heardAt = performance.now();
    try {
      this.worker.postMessage(message);
      return true;
    } catch (error) {
      this.hooks.onFailure(`${message.kind === 'exchange' ? 'an exchange' : 'a message'} could not be handed to the judges`, error);
      return false;
    }
  }

  private heard(message: FromJudgeWorker): void {
    this.heardAt = performance.now();
    switch (message.kind) {
      case 'judged':
        this.took(message.count);
        return;
      case 'tally': {
        this.lastTally = message.tally;
        this.asked.get(message.id)?.resolve(message.tally);
        this.asked.delete(message.id);
        return;
      }
      case 'tally-failed':
        this.asked.get(message.id)?.reject(new Error(message.message));
        this.asked.delete(message.id);
        return;
      case 'failed':
        if (message.exchange) this.lost += 1;
        this.hooks.onFailure(message.what, new Error(message.message));
        return;
      case 'change-set':
        try {
          this.hooks.onChangeSet?.(message.changeSet);
        } catch {
          // keeping a copy is a convenience: it never stops the judgement
        }
        return;
      case 'breaks':
      case 'operations':
        try {
          if (message.kind === 'breaks') this.hooks.news?.breaks(message.breaks);
          else this.hooks.news?.operations(message.operations);
        } catch {
          // the lines told while observing are a courtesy: they never stop the judgement
        }
        return;
    }
  }

  /** The worker stopped while it was wanted: told once; what it held and was not told back as taken is lost. */
  private died(why: string): void {
    if (this.closing || this.stopped !== undefined) return;
    this.stopped = why;
    clearInterval(this.watch);
    const held = this.posted - this.taken;
    this.lost += held;
    this.posted = this.taken;
    this.sizes = [];
    this.oldest = 0;
    this.heldBytes = 0;
    this.hooks.onFailure("the judges' worker thread stopped", new Error(`${why}; ${held} ${held === 1 ? 'exchange' : 'exchanges'} handed to it not judged, and none after`));
    for (const { resolve } of this.asked.values()) resolve(this.fallback());
    this.asked.clear();
  }

  /** The last tally the worker gave, or an empty one when it gave none. */
  private fallback(): JudgeTally {
    return this.lastTally ?? new StreamingJudge({ ...this.settings, onChangeSet: undefined, onJudged: undefined }).snapshot();
  }
}
