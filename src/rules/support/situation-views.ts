import type { Exchange } from '../../transcript/exchange.js';
import { Transcript } from '../../transcript/transcript.js';
import { burstWindow, isBusyAnswer, KitLoad, overlaps, overloadedByBurst, overloadedByKit, restartWindows, SITUATION_SUITES, type RestartWindow } from '../../transcript/situations.js';
import { operations } from '../../transcript/views.js';
import type { RuleView } from '../types.js';

/**
 * The views of the transcript a rule may see (its `view` field), each made once per judgement. The kit
 * provokes some situations on purpose, and what they provoke is judged by the rule about that situation alone:
 *
 * - a restart: refused connections, 5xx and lost operations around it are durability's, so every view but
 *   `whole` leaves out the restart suite's exchanges, any exchange in flight while the provisioner restarted
 *   (only the run's opening work is), and the 404s, 5xx and failed reads after it of work accepted before it;
 * - a burst: a 429, 5xx or reset to a call of the burst, or to any plan or apply in flight while the burst
 *   was, and a burst call held open because a full provisioner runs it at once, are the burst rule's, not
 *   those of the rules about everyday answers or their timing; so is a 429 or 503 to a plan or apply while the
 *   provisioner held other work of the kit (a case's slice is judged with its run's load, `load`);
 * - a repeat: the status of a POST sent again is the repeat rules', not the everyday answers'; and a repeat
 *   that the burst overloaded is the burst rule's, not the repeat rules'.
 */
export class SituationViews {
  private readonly views: Record<RuleView, Transcript>;

  constructor(transcript: Transcript, load?: KitLoad) {
    const withoutRestart = withoutRestartOf(transcript);
    const burst = burstWindow(withoutRestart);
    // The kit's load is worked out only when some call was answered 429 or 503: most runs have none.
    let kitLoad = load;
    const overloadedByLoad = (e: Exchange): boolean => isBusyAnswer(e) && overloadedByKit(e, (kitLoad ??= new KitLoad(transcript)));
    const overloaded = (e: Exchange): boolean => overloadedByBurst(e, burst) || overloadedByLoad(e);
    this.views = {
      whole: transcript,
      'without-restart': withoutRestart,
      'without-burst-calls': only(withoutRestart, (e) => !isPost(e) || e.suite !== SITUATION_SUITES.burst),
      'without-burst-overload': only(withoutRestart, (e) => !overloaded(e)),
      'without-burst-repeats-or-overload': only(
        withoutRestart,
        (e) => !isPost(e) || (e.suite !== SITUATION_SUITES.burst && e.repeatOf === undefined && !overloaded(e)),
      ),
    };
  }

  for(view: RuleView): Transcript {
    return this.views[view];
  }
}

function isPost(exchange: Exchange): boolean {
  return exchange.request.method === 'POST';
}

function only(transcript: Transcript, keep: (exchange: Exchange) => boolean): Transcript {
  const exchanges = transcript.exchanges.filter(keep);
  return exchanges.length === transcript.exchanges.length ? transcript : new Transcript(exchanges, transcript.events);
}

function withoutRestartOf(transcript: Transcript): Transcript {
  const windows = restartWindows(transcript);
  if (windows.length === 0 && !transcript.exchanges.some((e) => e.suite === SITUATION_SUITES.restart)) return transcript;
  const provoked = provokedByRestart(transcript, windows);
  const disturbed = (e: Exchange): boolean => e.suite === SITUATION_SUITES.restart || windows.some((window) => overlaps(e, window)) || provoked.reads.has(e.seq);
  const kept = transcript.exchanges.filter((e) => !disturbed(e));
  const keptSeqs = new Set(kept.map((e) => e.seq));
  // A poll that ended for an operation whose 202 is left out speaks of that operation only.
  const events = transcript.events.filter((event) => event.type !== 'poll-ended' || (keptSeqs.has(event.acceptedSeq) && !provoked.endsOf.has(event.acceptedSeq)));
  return new Transcript(kept, events);
}

/**
 * What a restart provoked in the work accepted before it, which durability judges alone: from the restart's start
 * on, a read of such an operation that answered 404, 5xx or not at all (a provisioner coming back up refuses it,
 * loses work in progress, or forgets work that had ended, as it may); and for an operation that never gave a final
 * answer, every read from then on and how its following ended (work a restart stalled must not also fail the
 * deadline). The final and in_progress answers of work that did end stay for the other rules. `endsOf`: the 202s
 * whose poll-ended event is left out.
 */
function provokedByRestart(transcript: Transcript, windows: readonly RestartWindow[]): { reads: Set<number>; endsOf: Set<number> } {
  const reads = new Set<number>();
  const endsOf = new Set<number>();
  for (const op of operations(transcript)) {
    // The first restart after the work was accepted: a provisioner may forget work that had ended before it, too.
    const window = windows.find((w) => w.startedAt >= op.acceptedAt);
    // Work lost before the restart began is no work the restart found in progress.
    if (!window || op.reads.some((read) => read.sentAt < window.startedAt && read.response?.status === 404)) continue;
    const ended = op.finalReads.length > 0;
    if (!ended) endsOf.add(op.accepted.seq);
    for (const read of op.reads) {
      // Stryker disable next-line EqualityOperator: a read sent as the restart began overlaps it, and is left out for that
      if (read.sentAt < window.startedAt) continue;
      // A read with an error has no status: 0 is neither 404 nor 5xx.
      const status = read.response?.status ?? 0;
      if (!ended || read.error !== undefined || status === 404 || status >= 500) reads.add(read.seq);
    }
  }
  return { reads, endsOf };
}
