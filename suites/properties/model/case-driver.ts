import type { LoadedChangeSet } from '../../../src/config/change-sets.js';
import { now, sleep } from '../../../src/client/clock.js';
import { Poller } from '../../../src/poller/poller.js';
import type { OperationConclusion } from '../../../src/core/operation-conclusion.js';
import type { SendOptions } from '../../../src/client/client.js';
import type { Exchange, SubmitKind } from '../../../src/transcript/exchange.js';
import type { PropertyContext } from '../property.js';
import type { TrackedOperation } from './model.js';
import { ReadsWhileWaiting } from './reads-while-waiting.js';
import { answerText, shortList } from './answer-text.js';
import { CaseStopped } from './violation.js';
import { post } from '../../post.js';

/** An id that is not a UUID: as the case names it, and as it is placed in the path. */
export interface MalformedId {
  raw: string;
  path: string;
}

/** What following an operation to its end did: the poller's conclusion and the polls it sent, in order. */
export interface FollowResult {
  conclusion: OperationConclusion;
  polls: Exchange[];
  /** The control plane's reads while the case waited had already seen the work end, at the one read in `polls`. */
  endedWhileWaiting?: boolean;
}

/**
 * The real side of a model-based case: sends through the run's recording client, tagged with the case's suite
 * name, so that every exchange lands in the run-wide transcript, and follows operations with the kit's own
 * Poller. Keeps the lines of the commands that ran, and knows whether any of its requests is still in flight.
 */
export class CaseDriver {
  /** What each command that ran did, with real ids, in order. */
  readonly log: string[] = [];
  private readonly poller: Poller;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** The control plane's reads of the case's operations in progress while the case waits on something else. */
  private readonly waiting: ReadsWhileWaiting;
  /** The line of the reads while waiting that the next such read of the same operation joins. */
  private waitingLine: { op: TrackedOperation; index: number; answers: string[] } | undefined;
  /**
   * Aborts when the case or the run is stopped: made on the first wait, one for all of the case's waits, as an
   * AbortSignal.any made for each wait lived on until a full collection.
   */
  private stopSignal: AbortSignal | undefined;

  /**
   * `stop` ends the case between requests; only the run-wide signal cuts a request in flight, so none is left broken.
   * `asLoad`: the case runs only as load beside another, planning where it would apply.
   */
  constructor(
    readonly context: PropertyContext,
    readonly suite: string,
    private readonly stop: AbortSignal,
    readonly asLoad = false,
  ) {
    // The control plane alone: one read per poll interval, no concurrent readers and no reads after the final
    // answer. The case's own read commands are its probes, so a counterexample says which reads went together.
    this.poller = new Poller(
      context.client,
      {
        pollIntervalMs: context.judgeContext.pollIntervalMs,
        maxOperationDurationMs: context.judgeContext.maxOperationDuration.ms,
        answerTimeoutMs: context.answerTimeoutMs,
        concurrentReaders: 0,
        readAfterFinal: false,
      },
      // Its operations are shown as any other: a case waiting on one is visibly waiting.
      context.poller.observer,
      context.signal,
    );
    this.waiting = new ReadsWhileWaiting(
      {
        pollIntervalMs: context.judgeContext.pollIntervalMs,
        maxOperationDurationMs: context.judgeContext.maxOperationDuration.ms,
        read: (op) => this.track(this.context.client.send(this.readOptions(op.id, encodeURIComponent(op.id), 'poll', op.changeSet.name))),
        ended: (op, ending) =>
          this.context.client.transcript.note({ type: 'poll-ended', at: now(), operationId: op.id, reason: ending.reason, acceptedSeq: op.accepted.seq, conclusion: ending.conclusion }),
        heard: (op, read) => this.noteReadWhileWaiting(op, read),
      },
      () => this.stoppedSignal,
    );
  }

  get stopped(): boolean {
    return this.stop.aborted || this.context.signal.aborted;
  }

  private get stoppedSignal(): AbortSignal {
    return (this.stopSignal ??= AbortSignal.any([this.stop, this.context.signal]));
  }

  async submit(kind: SubmitKind, changeSet: LoadedChangeSet): Promise<Exchange> {
    this.mustGoOn();
    // The scenarios' applies run under the same locks: an apply of a case waits for them, its plans never do.
    if (kind === 'apply' && this.context.appliesMayStart) await this.waiting.whileBlocked(this.untilStopped(this.context.appliesMayStart));
    this.mustGoOn();
    // Load holds no lock: it plans what it would apply, so it never meets an apply of the case beside it.
    const sent: SubmitKind = this.asLoad ? 'plan' : kind;
    return this.track(post(this.context, { suite: this.suite, kind: sent, body: changeSet.text, changeSet: changeSet.name }));
  }

  /** Resolves when `waited` settles or the case is stopped, whichever comes first. */
  private async untilStopped(waited: Promise<unknown>): Promise<void> {
    const stopped = this.stoppedSignal;
    if (stopped.aborted) return;
    let quit = (): void => undefined;
    const onStop = new Promise<void>((resolve) => {
      quit = resolve;
      stopped.addEventListener('abort', quit, { once: true });
    });
    try {
      await Promise.race([waited.then(() => undefined, () => undefined), onStop]);
    } finally {
      stopped.removeEventListener('abort', quit);
    }
  }

  /** An operation the case started was accepted: from now on the control plane reads it at the poll interval. */
  accepted(op: TrackedOperation): void {
    this.waiting.watch(op);
  }

  /**
   * Follows an operation exactly as the control plane does, with the kit's Poller, until its work has ended or
   * the case is stopped (the poller notes how it ended in the transcript, as for any other operation). When the
   * control plane's reads while the case waited saw the work end already, that read is how the follow ends.
   */
  async follow(op: TrackedOperation): Promise<FollowResult> {
    const seen = this.waiting.endingOf(op);
    if (seen) {
      const { reason, conclusion, read } = seen;
      return { conclusion: { operationId: op.id, changeSet: op.changeSet.name, kind: op.kind, reason, conclusion }, polls: [read], endedWhileWaiting: true };
    }
    const from = this.context.client.transcript.exchanges.length;
    const conclusion = await this.waiting.whileFollowed(op, () =>
      this.track(this.poller.follow({ accepted: op.accepted, operationId: op.id, kind: op.kind, changeSet: op.changeSet.name, suite: this.suite, stop: this.stop })),
    );
    const polls = this.context.client.transcript.exchanges
      .slice(from)
      .filter((e) => e.suite === this.suite && e.tag === 'poll' && e.operationId === op.id);
    return { conclusion, polls };
  }

  /**
   * `count` reads of one operation sent at the same moment: the first is a poll, the others concurrent probes.
   * They leave together even when the batch holds every connection: a counterexample's "at once" is then what
   * the provisioner saw, and a replay sends them as close together as the case did.
   */
  readTogether(op: TrackedOperation, count: number): Promise<Exchange[]> {
    this.mustGoOn();
    const reads = Array.from({ length: count }, (_, i) =>
      this.readOptions(op.id, encodeURIComponent(op.id), i === 0 ? 'poll' : 'read-concurrent', op.changeSet.name),
    );
    return this.waiting.readByCase(op, () => this.track(this.context.client.sendTogether(reads)));
  }

  /**
   * A line for the control plane's reads while the case waited, between the lines of the steps around them; reads
   * of one operation one after another share a line, so that minutes of waiting stay one line.
   */
  private noteReadWhileWaiting(op: TrackedOperation, read: Exchange): void {
    const head = `(while the case waited) the control plane read operation #${op.ordinal} ${op.id}`;
    const last = this.waitingLine;
    if (last && last.op === op && this.log.length === last.index + 1) last.answers.push(answerText(read));
    else this.waitingLine = { op, index: this.log.push('') - 1, answers: [answerText(read)] };
    const line = this.waitingLine!;
    this.log[line.index] = `${head} ${shortList(line.answers)}`;
  }

  readUnknown(id: string): Promise<Exchange> {
    this.mustGoOn();
    return this.read(id, encodeURIComponent(id), 'read-unknown');
  }

  readMalformed(id: MalformedId): Promise<Exchange> {
    this.mustGoOn();
    return this.read(id.raw, id.path, 'read-malformed');
  }

  /** Waits, cut short when the case is stopped. */
  async wait(ms: number): Promise<void> {
    this.mustGoOn();
    await sleep(ms, this.stoppedSignal);
  }

  /**
   * Resolves once no request of the case is in flight. An exchange is recorded only when it ends, so a read in
   * flight is missing from the case's slice; judging without it could blame a 404 that a final answer, sent
   * earlier and still on its way, excuses.
   */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** The case has followed its operations to their end: no read is sent for it any more, and none is in flight. */
  async finish(): Promise<void> {
    this.waiting.close();
    await this.idle();
    const failed = this.waiting.failed;
    if (failed) throw failed.error;
  }

  private read(operationId: string, pathSegment: string, tag: 'read-unknown' | 'read-malformed'): Promise<Exchange> {
    return this.track(this.context.client.send(this.readOptions(operationId, pathSegment, tag)));
  }

  private readOptions(operationId: string, pathSegment: string, tag: 'poll' | 'read-concurrent' | 'read-unknown' | 'read-malformed', changeSet?: string): SendOptions {
    return {
      suite: this.suite,
      tag,
      probe: tag !== 'poll',
      method: 'GET',
      path: `/operations/${pathSegment}`,
      operationId,
      changeSet,
      timeoutMs: this.context.answerTimeoutMs,
      signal: this.context.signal,
    };
  }

  private track<T>(request: Promise<T>): Promise<T> {
    this.inFlight.add(request);
    void request.finally(() => this.inFlight.delete(request)).catch(() => undefined);
    return request;
  }

  private mustGoOn(): void {
    if (this.stopped) throw new CaseStopped();
  }
}
