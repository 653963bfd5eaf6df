import type { Exchange, TranscriptEvent } from '../transcript/exchange.js';
import type { SeenChangeSet } from './seen-change-set.js';
import { sentAfterEnd } from '../transcript/views.js';

/** One call of a change set as the streaming judge follows it: its POST, and the reads of its operation. */
export interface FollowedCall {
  post: Exchange;
  changeSet: SeenChangeSet;
  reads: readonly Exchange[];
}

/** Judges a slice of traffic that holds a call sent again (its POST has `repeatOf`) with the call it repeats. */
export type JudgeRepeat = (exchanges: Exchange[], events: TranscriptEvent[], changeSet: SeenChangeSet) => void;

/** The first call of a change set that ended in a final answer: what a call sending it again is held to. */
interface FirstEnd {
  post: Exchange;
  /** The post and the read that gave its final answer (the post itself when it was answered at once). */
  exchanges: Exchange[];
  final: Exchange;
  /** The call whole and how its following ended: a call sent while it ran may be seen only after it ended. */
  call: FollowedCall;
  events: TranscriptEvent[];
}

/** A change set sent again while its first call was still followed: judged once both have ended. */
interface RunningRepeat {
  first: FollowedCall;
  /** The first call's end, once it ended. */
  firstEvents?: TranscriptEvent[];
  /** The call sent again and its end, once it ended. */
  again?: { call: FollowedCall; events: TranscriptEvent[] };
}

/** Change sets whose first end is remembered, so that a call sending one again is judged as a repeat; the oldest go first. */
const FIRST_ENDS_KEPT = 256;

/**
 * Finds the change sets the observed traffic sent again (the same bytes to the same endpoint) and hands each
 * repeat to be judged with the call it repeats, once what it needs has ended: sent after the first call's final
 * answer arrived, it is judged when it ends; sent while the first was still followed, when both have ended.
 * Memory: the first end of the latest change sets, and the calls followed.
 */
export class ChangeSetRepeats {
  private readonly firstEnds = new Map<string, FirstEnd>();
  /** The first call followed of each change set: the one a call sent meanwhile repeats. */
  private readonly running = new Map<string, FollowedCall>();
  private readonly repeatsEnded = new WeakMap<FollowedCall, FirstEnd>();
  private readonly repeatsRunning = new WeakMap<FollowedCall, RunningRepeat>();

  constructor(private readonly judge: JudgeRepeat) {}

  /**
   * A call was answered: it is followed from now on, and may repeat an earlier call of its change set. Returns
   * the seq of the POST it repeats, when it does.
   */
  sent(call: FollowedCall): number | undefined {
    const key = keyOf(call);
    const first = this.firstEnds.get(key);
    const followed = this.running.get(key);
    if (!followed) this.running.set(key, call);
    // Sent again once the first call's final answer had arrived: the control plane repeats work that ended.
    if (first && sentAfterEnd(first.final.endedAt, call.post.sentAt)) {
      this.repeatsEnded.set(call, first);
      return first.post.seq;
    }
    // Sent again while the first call was still followed: its first repeat only, one comparison says it. Traffic
    // is seen as answers end, so a call sent while the first ran may come after the first's end.
    const running = followed ?? first?.call;
    // A repeat the repeat rules will not judge stays an everyday call: its answer must be judged by someone.
    if (!running || this.repeatsRunning.has(running)) return undefined;
    const pair: RunningRepeat = { first: running, ...(running === first?.call && { firstEvents: first.events }) };
    this.repeatsRunning.set(running, pair);
    this.repeatsRunning.set(call, pair);
    return running.post.seq;
  }

  /** A call ended (`events`: how its following ended), with its final answer when it gave one. */
  ended(call: FollowedCall, events: TranscriptEvent[], final: Exchange | undefined): void {
    const key = keyOf(call);
    // Only the call a repeat is held to sets the end repeats are compared with: a repeat that ended sooner (an
    // apply sent while the first ran, refused at once) is the repeat rules' to judge, not the end to repeat.
    const followedFirst = this.running.get(key) === call;
    if (followedFirst) this.running.delete(key);
    const first = this.repeatsEnded.get(call);
    if (first) this.judge([...first.exchanges, ...sentAgain(call, first.post)], events, call.changeSet);
    const pair = this.repeatsRunning.get(call);
    if (pair) {
      if (pair.first === call) pair.firstEvents = events;
      else pair.again = { call, events };
      if (pair.firstEvents && pair.again) {
        const exchanges = [pair.first.post, ...pair.first.reads, ...sentAgain(pair.again.call, pair.first.post)].sort((a, b) => a.seq - b.seq);
        this.judge(exchanges, [...pair.firstEvents, ...pair.again.events], pair.first.changeSet);
      }
    }
    if (final && followedFirst && !this.firstEnds.has(key)) {
      this.firstEnds.set(key, { post: call.post, exchanges: call.post === final ? [call.post] : [call.post, final], final, call, events });
      if (this.firstEnds.size > FIRST_ENDS_KEPT) this.firstEnds.delete(this.firstEnds.keys().next().value!);
    }
  }
}

/** A change set as a call of one kind sent it: the same bytes to the same endpoint. */
function keyOf(call: FollowedCall): string {
  return `${call.post.tag} ${call.changeSet.sha256}`;
}

/** The exchanges of a call sent again, its POST marked as repeating `first`. */
function sentAgain(call: FollowedCall, first: Exchange): Exchange[] {
  return [{ ...call.post, repeatOf: first.seq }, ...call.reads];
}
