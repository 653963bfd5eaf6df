import type { JudgeContext } from '../core/judge-context.js';
import type { Verdict } from '../core/verdict.js';
import { unreachableSentences } from './unreachable-text.js';
import type { Transcript } from '../transcript/transcript.js';
import { submissions } from '../transcript/views.js';
import { waysJudged, type AnswerWay } from '../rules/support/answer-ways.js';

/** What a run judged when the provisioner chose one way of answering for every call it answered. */
const ONE_WAY: Record<AnswerWay, string> = {
  200: 'the provisioner answered every plan and apply call at once (200), which the contract allows: only 200 answers were judged, and the rules about accepted operations and their reads are not applicable',
  202: 'the provisioner accepted every plan and apply call (202), which the contract allows: only 202 answers and their operations were judged, and the rule about 200 answers to plan and apply is not applicable',
};

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
  const ways = waysJudged(transcript);
  if (ways.length === 1) sentences.push(ONE_WAY[ways[0]!]);
  else if (posts.length > 0 && ways.length === 0) {
    sentences.push('the provisioner never answered 202: no rule about accepted operations or their reads was judged');
  }
  if (context.maxOperationDuration.source === 'default' && posts.some((post) => post.response?.status === 202)) {
    sentences.push('no maxOperationDuration was given (--registration or --max-operation-duration): the kit waited at most PT30M, the most any registration may hold');
  }
  if (context.planOnly) sentences.push('--plan-only: apply was never called');
  return sentences;
}
