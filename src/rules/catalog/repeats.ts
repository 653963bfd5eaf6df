import type { Exchange } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { EndStates, describeDifferences, endDifferences, type EndState } from '../../transcript/end-states.js';
import { SITUATION_SUITES } from '../../transcript/situations.js';
import { outcomeOf, sentAfterEnd } from '../../transcript/views.js';
import { proxyOf, statusAnswered } from '../support/answered-by.js';
import { neverChosen } from '../support/answer-ways.js';
import { broken, evidence, held, notApplicable, notExercised } from '../support/judgement.js';
import { plural } from '../../core/text.js';
import type { JudgeContext } from '../../core/judge-context.js';
import type { Evidence, Judgement, Rule } from '../types.js';

/** A POST sent again byte for byte, with the POST it repeats. */
interface RepeatPair {
  first: Exchange;
  repeat: Exchange;
}

/** The kit's suites that send a POST again on purpose; a repeat sent by none of them is the traffic's own. */
const REPEAT_SUITES: readonly string[] = [SITUATION_SUITES.repeatApply, SITUATION_SUITES.repeatWhileRunning];

/**
 * Applies sent again, each with the first POST its `repeatOf` names: those of `suite`, and those the traffic
 * sent itself (a control plane sending a change set again, seen by an observer), which belong to the suite
 * whose situation they had: sent after the first call's final answer arrived (the repeat-apply suite's), or
 * before it (the repeat-while-running suite's).
 */
function repeatPairs(transcript: Transcript, suite: string, ends: EndStates): RepeatPair[] {
  const bySeq = new Map(transcript.exchanges.map((exchange) => [exchange.seq, exchange]));
  const afterEnd = suite === SITUATION_SUITES.repeatApply;
  return transcript.exchanges.flatMap((repeat) => {
    if (repeat.tag !== 'apply') return [];
    // Stryker disable next-line ConditionalExpression: a POST without repeatOf names no first POST either way; the test only narrows the type
    const first = repeat.repeatOf === undefined ? undefined : bySeq.get(repeat.repeatOf);
    if (!first) return [];
    if (repeat.suite === suite) return [{ first, repeat }];
    if (REPEAT_SUITES.includes(repeat.suite)) return [];
    const end = ends.of(first);
    return (end.ended && sentAfterEnd(end.final.endedAt, repeat.sentAt)) === afterEnd ? [{ first, repeat }] : [];
  });
}

function name(exchange: Exchange): string {
  return exchange.changeSet ?? `the change set of #${exchange.seq}`;
}

/** Exchanges that show two ends side by side: the repeat's POST first (the request to repeat), then both final answers. */
function sideBySide(repeat: Exchange, first: Exchange, second: EndState): Exchange[] {
  const shown = [repeat, first];
  if (second.ended && second.final !== repeat) shown.push(second.final);
  return shown;
}

/** The outcome of one pair: not judged (why), held, or broken (evidence). */
type PairVerdict = { judged: false; why: string } | { judged: true; evidence?: Evidence };

/** Why a call has no end; a status a proxy gave in the provisioner's place is said to be the proxy's. */
function noEndWords(post: Exchange, end: { why: string }): string {
  return proxyOf(post) ? statusAnswered(post) : end.why;
}

/** Compares the end of a repeat with the end of the first call, for changes' outcomes and, with `outputs`, their outputs. */
function compareEnds(ends: EndStates, pair: RepeatPair, what: string, options: { outputs: boolean }): PairVerdict {
  const first = ends.of(pair.first);
  const second = ends.of(pair.repeat);
  if (!first.ended) return { judged: false, why: `the first ${what} of ${name(pair.first)} ${noEndWords(pair.first, first)}` };
  if (!second.ended) {
    if (second.unknown) return { judged: false, why: `the kit stopped before the repeated ${what} of ${name(pair.first)} ended` };
    // Accepted work that was then lost, outlasted its deadline or was read as no operation answer is the operation
    // rules' to judge (not-lost, within-max-duration, body): its end state is not known, so it is not compared.
    if (second.afterAccepting !== undefined) return { judged: false, why: `the repeated ${what} of ${name(pair.first)} ${second.why}` };
    return {
      judged: true,
      evidence: evidence(`the ${what} of ${name(pair.first)} sent again ${noEndWords(pair.repeat, second)}, where the first ended ${outcomeOf(first.final)}`, ...sideBySide(pair.repeat, first.final, second)),
    };
  }
  const differences = endDifferences(first.final, second.final, options);
  if (differences.length === 0) return { judged: true };
  return {
    judged: true,
    evidence: evidence(
      `${name(pair.first)}: the first ${what} (#${first.final.seq}) and the one sent again (#${second.final.seq}) ended differently: ${describeDifferences(differences)}`,
      ...sideBySide(pair.repeat, first.final, second),
    ),
  };
}

/** Held, broken or not exercised, from the verdicts of every pair. */
function verdictOf(verdicts: PairVerdict[], none: string, heldMessage: (count: number) => string, brokenMessage: (count: number, of: number) => string): Judgement {
  const judged = verdicts.filter((v): v is { judged: true; evidence?: Evidence } => v.judged);
  if (judged.length === 0) {
    // Stryker disable next-line MethodExpression: with no pair judged, every verdict is one that was not; the filter only narrows the type
    const reasons = verdicts.filter((v): v is { judged: false; why: string } => !v.judged).map((v) => v.why);
    return notExercised(reasons.length === 0 ? none : `${none}: ${[...new Set(reasons)].join('; ')}`);
  }
  const faults = judged.flatMap((v) => (v.evidence ? [v.evidence] : []));
  if (faults.length === 0) return held(heldMessage(judged.length));
  return broken(brokenMessage(faults.length, judged.length), faults);
}

function judgeApplyIdempotent(transcript: Transcript, context: JudgeContext): Judgement {
  if (context.planOnly) return notExercised('--plan-only: apply was never called');
  const ends = new EndStates(transcript);
  const pairs = repeatPairs(transcript, SITUATION_SUITES.repeatApply, ends);
  return verdictOf(
    pairs.map((pair) => compareEnds(ends, pair, 'apply', { outputs: true })),
    'no apply was sent again after the first had ended',
    (n) => `${plural(n, 'change set was', 'change sets were')} applied again after the first apply ended: same outcome and outputs for every change`,
    (n, of) => `${n} of ${plural(of, 'apply', 'applies')} sent again after the first had ended did not give the same end state`,
  );
}

function judgeApplyRepeatWhileRunning(transcript: Transcript, context: JudgeContext): Judgement {
  if (context.planOnly) return notExercised('--plan-only: apply was never called');
  const ends = new EndStates(transcript);
  const verdicts = repeatPairs(transcript, SITUATION_SUITES.repeatWhileRunning, ends).map((pair): PairVerdict => {
    const op = ends.operationOf(pair.first);
    if (!op) return { judged: false, why: `the first apply of ${name(pair.first)} ${statusAnswered(pair.first)}, so it was never in progress` };
    // The control plane's view: the repeat went out before any final answer of the first had come back.
    if ((op.firstFinalReceivedAt ?? Number.POSITIVE_INFINITY) <= pair.repeat.sentAt) {
      return { judged: false, why: `the first apply of ${name(pair.first)} had already given its final answer when the repeat was sent` };
    }
    return compareEnds(ends, pair, 'apply', { outputs: true });
  });
  // A provisioner that answered every call at once never had an apply in progress to send again (a judged repeat had one).
  const atOnce = neverChosen(transcript, 202, 'no apply was ever in progress to send again');
  if (atOnce !== undefined) return notApplicable(atOnce);
  return verdictOf(
    verdicts,
    'no apply was sent again while the first was in progress',
    (n) => `${plural(n, 'apply was', 'applies were')} sent again while the first was in progress: both ended the same way`,
    (n, of) => `${n} of ${plural(of, 'apply', 'applies')} sent again while the first was in progress did not end in the same end state as the first`,
  );
}

function judgePlanRepeatable(transcript: Transcript, _context: JudgeContext): Judgement {
  const ends = new EndStates(transcript);
  // Plans of the same change set: the same bytes sent to POST /plan, by any suite.
  const byBody = new Map<string, Exchange[]>();
  for (const exchange of transcript.exchanges) {
    if (exchange.tag !== 'plan' || exchange.request.body === undefined) continue;
    const group = byBody.get(exchange.request.body) ?? [];
    group.push(exchange);
    byBody.set(exchange.request.body, group);
  }
  const verdicts: PairVerdict[] = [];
  for (const plans of byBody.values()) {
    if (plans.length < 2) continue;
    const [first, ...others] = plans.filter((plan) => ends.of(plan).ended);
    if (!first || others.length === 0) {
      verdicts.push({ judged: false, why: `fewer than two plans of ${name(plans[0]!)} ended in a final answer` });
      continue;
    }
    // Stryker disable next-line ObjectLiteral: an empty options object leaves outputs undefined, which compares no outputs either
    for (const repeat of others) verdicts.push(compareEnds(ends, { first, repeat }, 'plan', { outputs: false }));
  }
  return verdictOf(
    verdicts,
    'no change set was planned twice with both plans ending in a final answer',
    (n) => `${plural(n, 'plan')} of a change set already planned gave the same outcome for every change`,
    (n, of) => `${n} of ${plural(of, 'plan')} of a change set already planned gave another outcome for some change`,
  );
}

export const applyIdempotent: Rule = {
  id: 'apply.idempotent',
  level: 'MUST',
  section: 'repeats',
  view: 'without-burst-overload',
  timing: false,
  situations: ['repeat'],
  judgedInCases: ['generated-repeat'],
  judgedAcrossTraffic: false,
  title: 'Apply is idempotent',
  sentence: 'Applying the same change set again after the first apply ended gives the same end state: the same outcome and outputs for each change.',
  judge: judgeApplyIdempotent,
};

export const applyRepeatWhileRunning: Rule = {
  id: 'apply.repeat-while-running',
  level: 'SHOULD',
  section: 'repeats',
  view: 'without-burst-overload',
  timing: false,
  situations: ['repeat'],
  judgedInCases: ['generated-repeat'],
  judgedAcrossTraffic: false,
  title: 'A repeated apply while running converges',
  sentence: 'The same apply sent again while the first operation is still in progress ends in the same end state for both.',
  judge: judgeApplyRepeatWhileRunning,
};

export const planRepeatable: Rule = {
  id: 'plan.repeatable',
  level: 'SHOULD',
  section: 'repeats',
  view: 'without-burst-overload',
  timing: false,
  situations: ['repeat'],
  judgedInCases: ['generated-repeat'],
  judgedAcrossTraffic: false,
  title: 'Plan is repeatable',
  sentence: 'Two plans of the same change set give the same outcome for each change.',
  judge: judgePlanRepeatable,
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [applyIdempotent, applyRepeatWhileRunning, planRepeatable];
