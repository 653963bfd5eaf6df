import type { Exchange, SubmitKind } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { EndStates } from '../../transcript/end-states.js';
import {
  burstWindow,
  isBusyAnswer,
  isOverloadAnswer,
  overloadedByBurst,
  KitLoad,
  overloadedByKit,
  SITUATION_SUITES,
  type BurstWindow,
} from '../../transcript/situations.js';
import { operations, submissions, type OperationView } from '../../transcript/views.js';
import { statusAnswered } from '../support/answered-by.js';
import { broken, evidence, held, notExercised } from '../support/judgement.js';
import { plural } from '../../core/text.js';
import type { JudgeContext } from '../../core/judge-context.js';
import type { Evidence, Judgement, Rule } from '../types.js';

const BURST = SITUATION_SUITES.burst;

/** Most burst calls that were in flight at one moment, from their send and answer times. */
export function mostInFlight(calls: readonly Exchange[]): number {
  const edges = calls.flatMap((call) => [
    { at: call.sentAt, step: 1 },
    { at: call.respondedAt ?? call.endedAt, step: -1 },
  ]);
  // At equal times an answer ends before the next call starts: touching is not overlapping.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let most = 0;
  for (const edge of edges) {
    open += edge.step;
    most = Math.max(most, open);
  }
  return most;
}

function statusText(call: Exchange): string {
  // Stryker disable next-line OptionalChaining: an exchange without a transport error has a response
  return call.error ? `got no answer (${call.error.kind})` : statusAnswered(call);
}

/**
 * What calls got, as they got it: `were answered 500`, `got no answer (reset)`, or, when they got different
 * things, `failed: 7 answered 500, 2 got no answer (timeout)`, the commonest first.
 */
function whatCallsGot(calls: readonly Exchange[]): string {
  const counts = new Map<string, number>();
  for (const call of calls) {
    // An exchange without a transport error has a response.
    const got = call.error ? `got no answer (${call.error.kind})` : `answered ${call.response!.status}`;
    counts.set(got, (counts.get(got) ?? 0) + 1);
  }
  const groups = [...counts].sort((a, b) => b[1] - a[1]);
  if (groups.length > 1) return `failed: ${groups.map(([got, count]) => `${count} ${got}`).join(', ')}`;
  const got = groups[0]![0];
  return got.startsWith('answered') ? `${calls.length === 1 ? 'was' : 'were'} ${got}` : got;
}

/** When the operation was in flight: from its 202 call to the end of its last read. */
function spanOf(op: OperationView): { startedAt: number; endedAt: number } {
  let endedAt = op.accepted.endedAt;
  for (const read of op.reads) endedAt = Math.max(endedAt, read.endedAt);
  return { startedAt: op.accepted.sentAt, endedAt };
}

/**
 * Why operations outside the burst that ran without load did not end: the evidence that the provisioner fails
 * that way without load too. Work in flight while the burst was is no evidence. Nor is work after the burst
 * when the provisioner ended work until the burst and none after it: the burst broke it (a queue that never
 * drains holds the burst's work long after the kit stopped following it).
 */
function failuresWithoutLoad(transcript: Transcript, ends: EndStates, window: BurstWindow): Set<string> {
  const ops = operations(transcript);
  // The burst's own work was sent within its window, so none of it is sent after, and all of it is in flight with it.
  const after = ops.filter((op) => op.accepted.sentAt > window.endedAt);
  const ended = (op: OperationView): boolean => ends.of(op.accepted).ended;
  // Read only for work sent after the burst. None of that ended, so work that did was sent by the burst's end.
  const brokenByBurst = !after.some(ended) && ops.some(ended);
  return ends.failuresOutside((op) => {
    const span = spanOf(op);
    if (span.endedAt < window.startedAt) return false;
    return span.startedAt <= window.endedAt || brokenByBurst;
  });
}

/**
 * capacity.burst: every call of the burst answers 200 or 202 and every accepted operation reaches a
 * final answer; no other plan or apply in flight meanwhile is answered 429, 5xx or with a broken
 * connection. A burst call refused with another status (a 409, a 400) is load only when calls of that
 * kind outside the burst were answered 200 or 202. A burst operation that never ends is blamed on the
 * provisioner failing without load too only on evidence: an operation that ran without load (never in
 * flight with the burst) and failed to end the same way; the operation rules judge those. Without such
 * evidence, the burst operations that never end fail this rule.
 */
function judgeCapacityBurst(transcript: Transcript, context: JudgeContext): Judgement {
  const calls = submissions(transcript).filter((call) => call.suite === BURST);
  const others = submissions(transcript).filter((call) => call.suite !== BURST);
  const window = burstWindow(transcript);
  // The kit's suites and property batches load the provisioner too: a call refused as too busy then is load, burst or not.
  const busyUnderKit = busyUnderKitLoad(transcript, others, window);
  if (calls.length === 0) {
    // Only run sends a burst; observed traffic has whatever load the control plane gave it.
    const noBurst = context.observed ? 'the traffic had no burst of calls sent at once to load the provisioner' : 'no burst was sent (--burst 0)';
    if (busyUnderKit.length === 0) return notExercised(noBurst);
    return broken(`${refusedUnderKit(busyUnderKit.length)}; ${noBurst}`, busyUnderKit);
  }
  const answeredOutside = new Set<SubmitKind>(
    others.filter((call) => call.response?.status === 200 || call.response?.status === 202).map((call) => call.tag as SubmitKind),
  );
  const ends = new EndStates(transcript);
  // Only work that never met the burst shows how the provisioner fails without load.
  // A call of the burst makes its window: there is one here.
  const failsWithoutLoad = failuresWithoutLoad(transcript, ends, window!);

  const faults: Evidence[] = [];
  let answered = 0;
  let unattributed = 0;
  let accepted = 0;
  let ended = 0;
  for (const call of calls) {
    if (call.error?.kind === 'stopped') continue;
    const kind = call.tag as SubmitKind;
    const status = call.response?.status;
    if (status !== 200 && status !== 202) {
      if (isOverloadAnswer(call) || answeredOutside.has(kind)) faults.push(evidence(`${kind} ${call.changeSet ?? ''} ${statusText(call)} during a burst of ${plural(calls.length, 'call')}`, call));
      else unattributed++;
      continue;
    }
    answered++;
    // A 200 names no operation: only a 202 with an operationId has one to follow.
    if (!ends.operationOf(call)) continue;
    const end = ends.of(call);
    if (end.ended) {
      accepted++;
      ended++;
    } else if (!end.unknown) {
      accepted++;
      // Stryker disable next-line Regex: the prefix only ever stands at the start of why
      if (!failsWithoutLoad.has(end.why)) faults.push(evidence(`${kind} ${call.changeSet ?? ''} accepted during the burst ${end.why.replace(/^answered 202, then /, 'then ')}`, call));
      else unattributed++;
    }
  }
  const overloaded = others.filter((other) => overloadedByBurst(other, window));
  for (const call of overloaded) {
    faults.push(evidence(`${call.tag} ${call.changeSet ?? ''} of ${call.suite} ${statusText(call)} while a burst of ${plural(calls.length, 'call')} was in flight`, call));
  }
  const inFlight = mostInFlight(calls);
  const kinds = `${plural(calls.filter((c) => c.tag === 'plan').length, 'plan')}, ${plural(calls.filter((c) => c.tag === 'apply').length, 'apply', 'applies')}`;
  const aside = unattributed > 0 ? `; ${plural(unattributed, 'call')} failed the way the provisioner fails without load too, which answer.status and the operation rules judge` : '';
  if (faults.length > 0 || busyUnderKit.length > 0) {
    // The burst's own calls and the other suites' calls it overloaded are counted apart: "24 of 20" says nothing.
    const own = faults.length - overloaded.length;
    const shape = `${kinds}, up to ${inFlight} in flight at once`;
    const parts = [
      ...(own > 0 ? [`${own} of ${plural(calls.length, 'call')} in a burst (${shape}) did not hold`] : []),
      ...(overloaded.length > 0 ? [`${plural(overloaded.length, 'call')} of other suites ${whatCallsGot(overloaded)} ${own > 0 ? 'meanwhile' : `during a burst of ${plural(calls.length, 'call')} (${shape})`}`] : []),
      ...(busyUnderKit.length > 0 ? [refusedUnderKit(busyUnderKit.length)] : []),
    ];
    return broken(`${parts.join(', and ')}${aside}`, [...faults, ...busyUnderKit]);
  }
  if (answered === 0) return notExercised(`no call of the burst was answered as it would be without load${aside}`);
  const operationsEnded = accepted === 0 ? 'none was accepted with 202' : `${ended} of ${plural(accepted, 'accepted operation')} reached a final answer`;
  return held(`${plural(calls.length, 'call')} at once (${kinds}, up to ${inFlight} in flight together): ${answered} answered 200 or 202, ${operationsEnded}${aside}`);
}

/**
 * Plans and applies of any suite but the burst answered 429 or 503 while the provisioner held other work of the
 * kit (and not already the burst's): the provisioner was too busy for the kit's concurrent calls.
 */
function busyUnderKitLoad(transcript: Transcript, others: readonly Exchange[], window: BurstWindow | undefined): Evidence[] {
  // Stryker disable next-line ConditionalExpression: only skips working out the load when no call was answered 429 or 503
  if (!others.some(isBusyAnswer)) return [];
  const load = new KitLoad(transcript);
  return others.flatMap((call) => {
    if (overloadedByBurst(call, window) || !overloadedByKit(call, load)) return [];
    return [evidence(`${call.tag} ${call.changeSet ?? ''} of ${call.suite} ${statusText(call)} while the kit had ${plural(load.besides(call), 'other call or operation', 'other calls or operations')} in flight`, call)];
  });
}

function refusedUnderKit(count: number): string {
  return `${plural(count, 'call')} ${count === 1 ? 'was' : 'were'} answered 429 or 503 while the provisioner held other work of the kit`;
}

export const capacityBurst: Rule = {
  id: 'capacity.burst',
  level: 'MUST',
  section: 'load',
  view: 'without-restart',
  timing: false,
  situations: ['burst'],
  judgedInCases: [],
  judgedAcrossTraffic: false,
  title: 'Bursts are answered',
  sentence: 'Under a burst of concurrent plan and apply calls every call answers 200 or 202 and every accepted operation reaches a final answer: no 429, no 5xx, no reset connection.',
  judge: judgeCapacityBurst,
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [capacityBurst];
