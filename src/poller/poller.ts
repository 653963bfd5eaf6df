import { setMaxListeners } from 'node:events';
import type { Exchange, SubmitKind } from '../transcript/exchange.js';
import { bodyObject, isFinalAnswer, outcomeOf } from '../transcript/views.js';
import type { ProvisionerClient } from '../client/client.js';
import { now, sleep } from '../client/clock.js';
import { formatMs } from '../core/duration.js';
import type { OperationConclusion } from '../core/operation-conclusion.js';
import { BudgetSpent } from '../core/budget-spent.js';
import { unexpectedAnswer } from './unexpected-answer.js';
import { withRestart } from './restart-note.js';

/** Who wants to hear about an operation while it is followed (the live console). */
export interface OperationObserver {
  /** `suite`: the suite that follows it, so that a display can group the operations of a busy suite. */
  operationAccepted(id: string, changeSet: string | undefined, kind: SubmitKind, deadlineMs: number, suite?: string): void;
  /** `note`: the progress note of an in_progress answer; `failed`: what the poll got when no reader said in_progress or gave a final answer. */
  operationRead(id: string, note: string | undefined, failed?: string): void;
  /** `quiet`: the kit stopped following work it sent only as load for another case; its end is no news. */
  operationEnded(id: string, conclusion: string, quiet?: boolean): void;
}

/** The reason a stop gives when the work it stops was sent as load beside a case that has ended. */
export class LoadEnded extends Error {
  constructor() {
    super('the case it ran beside as load had ended');
    this.name = 'LoadEnded';
  }
}

export interface PollerSettings {
  pollIntervalMs: number;
  maxOperationDurationMs: number;
  /** Time allowed for one read; past it the read counts as a timeout and is repeated. */
  answerTimeoutMs: number;
  /** Extra readers sent together with each poll (probes). */
  concurrentReaders: number;
  /** Read again at once and one poll interval after the final answer (probes). */
  readAfterFinal: boolean;
}

export interface FollowRequest {
  accepted: Exchange;
  operationId: string;
  kind: SubmitKind;
  changeSet?: string;
  suite: string;
  /**
   * Ends following between reads once aborted (a property's time limit): no read in flight is cut, so
   * stopping leaves no broken exchange behind. The run-wide signal still cuts everything.
   */
  stop?: AbortSignal;
}

/** Why the kit stopped following an operation, in the words its suite gave the stop; none when it gave none. */
function stoppedFollowing(reason: unknown): string {
  const given = reason instanceof Error && reason.name !== 'AbortError' && reason.message !== '' ? reason.message : undefined;
  return given === undefined ? 'the kit stopped following this work before it ended' : `the kit stopped following this work: ${given}`;
}

/**
 * Follows an accepted operation exactly as the control plane does: a read at once, then one every poll
 * interval; 5xx, timeouts and refused connections mean "read again"; a 404 means the work is lost; a
 * final answer ends polling, and so does a 200 whose body is no operation answer (the control plane fails
 * the work then); the deadline is maxOperationDuration after the 202. Around that it adds the probes the
 * rules need, marked as such.
 */
export class Poller {
  private readonly pending = new Set<Promise<void>>();
  /** The probes after the final answer, per operation id, while they run. */
  private readonly readsAfterFinalById = new Map<string, Promise<void>>();

  constructor(
    private readonly client: ProvisionerClient,
    private readonly settings: PollerSettings,
    /** Who hears of the operations followed; a suite's own poller tells the same listener. */
    readonly observer?: OperationObserver,
    private readonly signal?: AbortSignal,
  ) {
    // Every operation followed waits on this signal at once: a listener per operation in flight is by design.
    if (signal) setMaxListeners(0, signal);
  }

  /** The control plane's time between reads, for suites that read again as it would. */
  get pollIntervalMs(): number {
    return this.settings.pollIntervalMs;
  }

  async follow(request: FollowRequest): Promise<OperationConclusion> {
    const { accepted, operationId } = request;
    const deadline = accepted.endedAt + this.settings.maxOperationDurationMs;
    this.observer?.operationAccepted(operationId, request.changeSet, request.kind, this.settings.maxOperationDurationMs, request.suite);
    let unexpected: Exchange | undefined;
    let ended: { reason: OperationConclusion['reason']; conclusion: string; final?: Exchange } | undefined;
    // One signal for every wait of this operation: each AbortSignal.any lives until a full collection.
    let waitSignal: AbortSignal | undefined;

    while (!ended) {
      if (this.signal?.aborted) {
        const why = this.signal.reason instanceof BudgetSpent ? `${this.signal.reason.message} before the work ended` : 'the run was stopped before the work ended';
        ended = { reason: 'aborted', conclusion: why };
        break;
      }
      if (request.stop?.aborted) {
        ended = { reason: 'aborted', conclusion: stoppedFollowing(request.stop.reason) };
        break;
      }
      if (now() >= deadline) {
        ended = {
          reason: 'deadline',
          conclusion: `the control plane would fail this work: no final answer within ${formatMs(this.settings.maxOperationDurationMs)} of the 202`,
        };
        break;
      }
      const tickStart = now();
      const reads = await this.readTogether(request);
      const [poll] = reads;
      ended = endingOf(reads, accepted, unexpected);
      this.observer?.operationRead(operationId, progressNote(reads), ended?.final ? undefined : failedRead(reads));
      if (!ended) {
        unexpected ??= isUnexpected(poll!) ? poll : undefined;
        const wait = Math.min(tickStart + this.settings.pollIntervalMs, deadline) - now();
        await sleep(wait, (waitSignal ??= this.waitSignal(request)));
      }
    }

    const failed = ended.final !== undefined && outcomeOf(ended.final) === 'failed';
    ended = { ...ended, conclusion: withRestart(ended.conclusion, failed, this.client.transcript, accepted.endedAt, now()) };
    this.client.transcript.note({
      type: 'poll-ended',
      at: now(),
      operationId,
      reason: ended.reason,
      acceptedSeq: accepted.seq,
      conclusion: ended.conclusion,
    });
    this.observer?.operationEnded(operationId, ended.conclusion, ended.reason === 'aborted' && request.stop?.reason instanceof LoadEnded);
    // The control plane is done here; the probes after the final answer go on without holding up the caller.
    if (ended.final && this.settings.readAfterFinal) this.track(operationId, this.readsAfterFinal(request));
    return { operationId, changeSet: request.changeSet, kind: request.kind, reason: ended.reason, conclusion: ended.conclusion };
  }

  /** Resolves once every probe still running after a final answer has ended. */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  /** Resolves once the probes after the final answer of this one operation have ended (at once when there are none). */
  async readsAfterFinalDone(operationId: string): Promise<void> {
    await this.readsAfterFinalById.get(operationId);
  }

  private track(operationId: string, probe: Promise<void>): void {
    this.pending.add(probe);
    this.readsAfterFinalById.set(operationId, probe);
    void probe.finally(() => {
      this.pending.delete(probe);
      if (this.readsAfterFinalById.get(operationId) === probe) this.readsAfterFinalById.delete(operationId);
    });
  }

  /** What cuts a wait between reads short: the run stopping, or the caller no longer following. */
  private waitSignal(request: FollowRequest): AbortSignal | undefined {
    if (!request.stop) return this.signal;
    return this.signal ? AbortSignal.any([this.signal, request.stop]) : request.stop;
  }

  /** One poll and its concurrent probe readers, sent at the same moment. */
  private readTogether(request: FollowRequest): Promise<Exchange[]> {
    const reads = [this.read(request, 'poll')];
    for (let i = 0; i < this.settings.concurrentReaders; i++) reads.push(this.read(request, 'read-concurrent'));
    return Promise.all(reads);
  }

  private async readsAfterFinal(request: FollowRequest): Promise<void> {
    await this.read(request, 'read-after-final');
    await sleep(this.settings.pollIntervalMs, this.signal);
    if (!this.signal?.aborted) await this.read(request, 'read-after-final');
  }

  private read(request: FollowRequest, tag: 'poll' | 'read-concurrent' | 'read-after-final'): Promise<Exchange> {
    return this.client.send({
      suite: request.suite,
      tag,
      probe: tag !== 'poll',
      method: 'GET',
      path: `/operations/${encodeURIComponent(request.operationId)}`,
      operationId: request.operationId,
      changeSet: request.changeSet,
      timeoutMs: this.settings.answerTimeoutMs,
      signal: this.signal,
    });
  }
}

/** How one poll, with the probe readers sent beside it, ends the following of an operation; undefined: read again. */
export interface PollEnding {
  reason: Exclude<OperationConclusion['reason'], 'deadline' | 'aborted'>;
  conclusion: string;
  final?: Exchange;
}

/**
 * What the control plane concludes from one poll (`reads[0]`) and the probes sent with it: a 200 that is no
 * operation answer fails the work, a final answer ends it, a 404 loses it; anything else means read again.
 * `unexpected`: an earlier read the control plane could not use and read past.
 */
export function endingOf(reads: readonly Exchange[], accepted: Exchange, unexpected?: Exchange): PollEnding | undefined {
  const poll = reads[0]!;
  // Only the poll is the control plane's own read: what a probe reader got never ends the work.
  const unusable = unexpectedAnswer(poll);
  if (unusable !== undefined) {
    return {
      reason: 'unexpected',
      conclusion: `the control plane would fail this work: the provisioner sent an unexpected response (the read ${formatMs(poll.sentAt - accepted.endedAt)} after the 202 answered 200, but ${unusable})`,
    };
  }
  const final = reads.find(isFinalAnswer);
  if (final) return { reason: 'final', conclusion: finalConclusion(final, unexpected, accepted), final };
  if (poll.response?.status === 404) {
    return {
      reason: 'lost',
      conclusion: `the control plane would fail this work at once: the read ${formatMs(poll.sentAt - accepted.endedAt)} after the 202 answered 404`,
    };
  }
  return undefined;
}

/** A read the control plane could not use and read past: a status other than 200, 404 or 5xx. */
function isUnexpected(read: Exchange): boolean {
  const status = read.response?.status;
  if (status === undefined || status >= 500 || status === 404) return false;
  return status !== 200;
}

/** The progress note of the first reader that answered in_progress with one. */
function progressNote(reads: Exchange[]): string | undefined {
  for (const read of reads) {
    const description = bodyObject(read)?.description;
    if (outcomeOf(read) === 'in_progress' && typeof description === 'string') return description;
  }
  return undefined;
}

/** What the poll got when no reader said in_progress ("read answered 502", "read timed out"), else undefined. */
function failedRead(reads: Exchange[]): string | undefined {
  if (reads.some((read) => outcomeOf(read) === 'in_progress')) return undefined;
  const poll = reads[0]!;
  if (poll.error) return poll.error.kind === 'timeout' ? 'read timed out' : `read failed: ${poll.error.kind}`;
  if (poll.response && poll.response.status !== 200) return `read answered ${poll.response.status}`;
  return 'read answered 200 without a known outcome';
}

function finalConclusion(final: Exchange, unexpected: Exchange | undefined, accepted: Exchange): string {
  const outcome = outcomeOf(final);
  const after = formatMs(final.endedAt - accepted.endedAt);
  if (unexpected) {
    return `the control plane would fail this work: read #${unexpected.seq} answered an unexpected ${unexpected.response?.status} (the work itself ended ${outcome} after ${after})`;
  }
  return `the control plane would record ${outcome} after ${after}`;
}
