import { plural } from '../../core/text.js';
import { SITUATION_SUITES } from '../../transcript/situations.js';
import type { Transcript } from '../../transcript/transcript.js';
import { submissions } from '../../transcript/views.js';
import type { Judgement } from '../types.js';
import { notApplicable, notExercised } from './judgement.js';

/**
 * The two ways the contract lets a provisioner answer a plan or apply call: 200 with the final answer at
 * once, or 202 with an operation to read. It may choose either for each call; a rule about one way has
 * nothing to judge when the provisioner never chose it, which is no fault and no gap of the run.
 */
export type AnswerWay = 200 | 202;

/** How the plan and apply calls of a transcript were answered. */
export interface AnswerWays {
  /** Plan and apply calls sent (bad-input probes are none). */
  calls: number;
  /** Answered 200: the final answer at once. */
  atOnce: number;
  /** Answered 202: an operation to read. */
  accepted: number;
  /** Calls of the burst among the calls. */
  burst: number;
}

/** Counts the plan and apply calls of a transcript by the way they were answered. */
export function answerWays(transcript: Transcript): AnswerWays {
  const ways: AnswerWays = { calls: 0, atOnce: 0, accepted: 0, burst: 0 };
  for (const call of submissions(transcript)) {
    ways.calls++;
    const status = call.response?.status;
    if (call.suite === SITUATION_SUITES.burst) ways.burst++;
    // Another status or no answer at all is neither way: it says nothing of how the provisioner chooses.
    if (status === 200) ways.atOnce++;
    else if (status === 202) ways.accepted++;
  }
  return ways;
}

/**
 * Why a rule about answers given `way` does not apply: the provisioner answered every plan and apply call it
 * answered the other way (at least one; the burst's calls count like any other), which the contract allows.
 * `what` says what is then missing ("no 200 answer to judge"). Undefined when the provisioner chose `way` at
 * least once, or answered no call either way (then the run lacks the situation: the rule is not exercised).
 */
export function neverChosen(transcript: Transcript, way: AnswerWay, what: string): string | undefined {
  return neverChosenAmong(answerWays(transcript), way, what);
}

/** {@link neverChosen} for calls already counted: an observation counts its calls as they come, judged one by one. */
export function neverChosenAmong(ways: AnswerWays, way: AnswerWay, what: string): string | undefined {
  const chosen = way === 200 ? ways.atOnce : ways.accepted;
  const other = way === 200 ? ways.accepted : ways.atOnce;
  if (chosen > 0 || other === 0) return undefined;
  const answered = way === 200 ? 'answered 202' : 'answered 200 at once';
  const burst = ways.burst > 0 ? `, the burst's ${ways.burst} included` : '';
  const calls =
    other === ways.calls
      ? ways.calls === 1
        ? `the one plan or apply call was ${answered}`
        : `all ${ways.calls} plan and apply calls were ${answered}${burst}`
      : `every plan and apply call answered 200 or 202 was ${answered} ${answeredApart(other, ways.calls, burst)}`;
  return `${calls}: ${what}`;
}

/**
 * What is missing according to a reason {@link neverChosen} gave ("no operation to read"): the part after the
 * calls it counted, which never hold ": ". For telling the reason again over more calls than it counted.
 */
export function whatNeverChosenLacks(reason: string): string {
  const cut = reason.indexOf(': ');
  return cut < 0 ? reason : reason.slice(cut + 2);
}

/**
 * The count of the calls answered one way among all the plan and apply calls, and of the rest, which got
 * another status or no answer: "(1 of 5 calls; the other 4 got another status or no answer)". `among` is
 * said after the total (", the burst's 2 included"). Only for a count of calls of which some chose neither way.
 */
export function answeredApart(chosen: number, calls: number, among = ''): string {
  const others = calls - chosen;
  return `(${chosen} of ${plural(calls, 'call')}${among}; ${others === 1 ? 'the other one' : `the other ${others}`} got another status or no answer)`;
}

/** The ways of answering the run judged, for its certificate: those the provisioner chose at least once, 200 first. */
export function waysJudged(transcript: Transcript): AnswerWay[] {
  return waysChosen(answerWays(transcript));
}

/** The ways of answering a provisioner chose at least once, 200 first, from its calls counted. */
export function waysChosen(ways: AnswerWays): AnswerWay[] {
  return [...(ways.atOnce > 0 ? [200 as const] : []), ...(ways.accepted > 0 ? [202 as const] : [])];
}

/**
 * The judgement of a rule about answers given `way` that found none to judge: not applicable when the
 * provisioner chose the other way for every call ({@link neverChosen}), else not exercised for `otherwise`.
 */
export function noAnswerThatWay(transcript: Transcript, way: AnswerWay, what: string, otherwise: string): Judgement {
  const chose = neverChosen(transcript, way, what);
  return chose === undefined ? notExercised(otherwise) : notApplicable(chose);
}
