import type { JudgeContext } from '../core/judge-context.js';
import type { Verdict } from '../core/verdict.js';
import { unreachableSentences } from './unreachable-text.js';
import type { Transcript } from '../transcript/transcript.js';
import { submissions } from '../transcript/views.js';
import { answeredApart, answerWays, waysChosen, waysJudged, type AnswerWay, type AnswerWays } from '../rules/support/answer-ways.js';

/** How the provisioner answered when it chose one way (`all`: every call; `some`: every call answered 200 or 202), and what that leaves judged. */
const ONE_WAY: Record<AnswerWay, { all: string; some: string; judged: string }> = {
  200: {
    all: 'answered every plan and apply call at once (200)',
    some: 'answered at once (200) every plan and apply call that got 200 or 202',
    judged: 'only 200 answers were judged, and the rules about accepted operations and their reads are not applicable',
  },
  202: {
    all: 'accepted every plan and apply call (202)',
    some: 'accepted (202) every plan and apply call that got 200 or 202',
    judged: 'only 202 answers and their operations were judged, and the rule about 200 answers to plan and apply is not applicable',
  },
};

/**
 * The sentence for a provisioner that chose one way for every call it answered either way. Calls answered
 * with another status (a 429 in a burst) or not at all are counted apart: "every call" is said only when true.
 */
function oneWaySentence(way: AnswerWay, ways: AnswerWays): string {
  const { all, some, judged } = ONE_WAY[way];
  const chosen = way === 200 ? ways.atOnce : ways.accepted;
  const which = chosen === ways.calls ? all : `${some} ${answeredApart(chosen, ways.calls)}`;
  return `the provisioner ${which}, which the contract allows: ${judged}`;
}

/** The ways of answering (200, 202) a certificate covers: those the provisioner chose, and so were judged. */
export function waysCertified(transcript: Transcript): string {
  const ways = waysJudged(transcript);
  const judged = ways.length === 0 ? 'none' : ways.join(' and ');
  return `ways of answering plan and apply judged: ${judged}${ways.length === 1 ? ` only (the provisioner never answered ${ways[0] === 200 ? 202 : 200})` : ''}`;
}

/** Plain sentences about the run as a whole, so a reader knows what was and was not judged. */
export function conclusionsFor(transcript: Transcript, context: JudgeContext, verdict: Verdict, url: string): string[] {
  const sentences: string[] = [];
  const posts = submissions(transcript);
  if (verdict === 'unreachable') return unreachableSentences(url, transcript.exchanges);
  const counted = answerWays(transcript);
  const ways = waysChosen(counted);
  if (ways.length === 1) sentences.push(oneWaySentence(ways[0]!, counted));
  else if (posts.length > 0 && ways.length === 0) {
    sentences.push('the provisioner never answered 202: no rule about accepted operations or their reads was judged');
  }
  if (context.maxOperationDuration.source === 'default' && posts.some((post) => post.response?.status === 202)) {
    sentences.push(`no maxOperationDuration was given (--registration or --max-operation-duration): the kit waited at most ${context.maxOperationDuration.text}, the most any registration may hold`);
  }
  if (context.planOnly) sentences.push('--plan-only: apply was never called');
  return sentences;
}
