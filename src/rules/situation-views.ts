import type { Exchange } from '../transcript/exchange.js';
import { Transcript } from '../transcript/transcript.js';
import { burstWindow, overlaps, overloadedByBurst, restartWindows, SITUATION_SUITES } from '../transcript/situations.js';

/**
 * What each rule sees of the transcript. The kit provokes some situations on purpose, and what they
 * provoke is judged by the rule about that situation alone, never by a rule about everyday calls:
 *
 * - a restart: refused connections, 5xx and lost operations around it are durability.survives-restart's,
 *   so every other rule sees the run without the restart suite's exchanges and without any exchange in
 *   flight while the provisioner restarted (the restart runs after every other suite, so there are none);
 * - a burst: a 429, 5xx or reset to a call of the burst, or to any plan or apply in flight while the burst
 *   was, and a burst call held open because a full provisioner runs it at once, are capacity.burst's, not
 *   answer.status' or answer.prompt's;
 * - a repeat: the status of a POST sent again is the repeat rules', not answer.status'; and a repeat that
 *   the burst overloaded is capacity.burst's, not the repeat rules'.
 */
export class SituationViews {
  private readonly whole: Transcript;
  private readonly calm: Transcript;
  private readonly everyday: Transcript;
  private readonly unhurried: Transcript;
  private readonly unburdened: Transcript;

  constructor(transcript: Transcript) {
    this.whole = transcript;
    this.calm = withoutRestart(transcript);
    const burst = burstWindow(this.calm);
    this.everyday = only(this.calm, (e) => !isPost(e) || (e.suite !== SITUATION_SUITES.burst && e.repeatOf === undefined && !overloadedByBurst(e, burst)));
    this.unhurried = only(this.calm, (e) => !isPost(e) || e.suite !== SITUATION_SUITES.burst);
    this.unburdened = only(this.calm, (e) => !overloadedByBurst(e, burst));
  }

  for(ruleId: string): Transcript {
    switch (ruleId) {
      case 'durability.survives-restart':
        return this.whole;
      case 'answer.status':
        return this.everyday;
      case 'answer.prompt':
        return this.unhurried;
      case 'apply.idempotent':
      case 'apply.repeat-while-running':
      case 'plan.repeatable':
        return this.unburdened;
      default:
        return this.calm;
    }
  }
}

function isPost(exchange: Exchange): boolean {
  return exchange.request.method === 'POST';
}

function only(transcript: Transcript, keep: (exchange: Exchange) => boolean): Transcript {
  const exchanges = transcript.exchanges.filter(keep);
  return exchanges.length === transcript.exchanges.length ? transcript : new Transcript(exchanges, transcript.events);
}

function withoutRestart(transcript: Transcript): Transcript {
  const windows = restartWindows(transcript);
  if (windows.length === 0 && !transcript.exchanges.some((e) => e.suite === SITUATION_SUITES.restart)) return transcript;
  const disturbed = (e: Exchange): boolean => e.suite === SITUATION_SUITES.restart || windows.some((window) => overlaps(e, window));
  const kept = transcript.exchanges.filter((e) => !disturbed(e));
  const keptSeqs = new Set(kept.map((e) => e.seq));
  // A poll that ended for an operation whose 202 is left out speaks of that operation only.
  const events = transcript.events.filter((event) => event.type !== 'poll-ended' || keptSeqs.has(event.acceptedSeq));
  return new Transcript(kept, events);
}
