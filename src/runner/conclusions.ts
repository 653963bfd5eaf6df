import type { JudgeContext } from '../core/judge-context.js';
import type { Verdict } from '../core/verdict.js';
import { unreachableSentences } from './unreachable-text.js';
import type { Transcript } from '../transcript/transcript.js';
import { submissions } from '../transcript/views.js';

/** Plain sentences about the run as a whole, so a reader knows what was and was not judged. */
export function conclusionsFor(transcript: Transcript, context: JudgeContext, verdict: Verdict, url: string): string[] {
  const sentences: string[] = [];
  const posts = submissions(transcript);
  if (verdict === 'unreachable') return unreachableSentences(url, transcript.exchanges);
  if (posts.length > 0 && !posts.some((post) => post.response?.status === 202)) {
    sentences.push('the provisioner never answered 202: no rule about accepted operations or their reads was judged');
  }
  if (context.maxOperationDuration.source === 'default' && posts.some((post) => post.response?.status === 202)) {
    sentences.push('no maxOperationDuration was given (--registration or --max-operation-duration): the kit waited at most PT30M, the most any registration may hold');
  }
  if (context.planOnly) sentences.push('--plan-only: apply was never called');
  return sentences;
}
