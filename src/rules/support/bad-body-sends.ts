import type { JudgeContext } from '../../core/judge-context.js';
import { plural } from '../../core/text.js';
import type { Exchange } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { overlaps } from '../../transcript/situations.js';
import { isTransient } from '../../transcript/views.js';
import { evidence } from './judgement.js';
import { answeredText, insistedOn, READS_BEFORE_GIVING_UP, transientSummary, windowOf } from './unanswered-ids.js';
import type { Evidence } from '../types.js';

/**
 * Bad-input POSTs, sorted out by what a 5xx means: none. A case sends its bad body again after a 5xx, a timeout
 * or a refused connection, one poll interval later, up to three times; only answered sends are judged, and a body
 * that got nothing but 5xx over two poll intervals, while other calls made meanwhile were answered, is a fault
 * of its own: the 5xx is about the body, not an outage.
 */
export interface BadBodySends {
  /** Sends the provisioner answered (below 500): the rules judge these. */
  answered: Exchange[];
  /** Bodies that got nothing but 5xx or no answer while the provisioner answered other calls. */
  silent: Evidence[];
  /** Sends that failed transiently and say nothing. */
  transient: number;
  /** Why no body could be judged when none was answered and none is silent for good. */
  unjudged: string;
}

/** `describe` names a send for a note, e.g. `POST /plan with "{"` (the body cut short). */
export function sortBadBodySends(transcript: Transcript, context: JudgeContext, sends: readonly Exchange[], describe: (send: Exchange) => string): BadBodySends {
  const byBody = new Map<string, Exchange[]>();
  // One case's sends of one body: the suite names the case, so two cases sending the same body stay apart.
  for (const send of sends) {
    const key = JSON.stringify([send.suite, send.request.url, send.request.body]);
    byBody.set(key, [...(byBody.get(key) ?? []), send]);
  }
  const answered = sends.filter((send) => !isTransient(send));
  const silent: Evidence[] = [];
  let insistedOnAny = false;
  let comparable = false;
  for (const tries of byBody.values()) {
    if (tries.some((send) => !isTransient(send)) || !insistedOn(tries, context.pollIntervalMs)) continue;
    insistedOnAny = true;
    const window = windowOf(tries);
    const meanwhile = transcript.exchanges.filter((other) => !tries.includes(other) && overlaps(other, window));
    comparable ||= meanwhile.length > 0;
    const answeredMeanwhile = meanwhile.filter((other) => !isTransient(other));
    if (answeredMeanwhile.length === 0) continue;
    silent.push(
      evidence(
        `${describe(tries[0]!)} ${transientSummary(tries, 'send')}, while ${plural(answeredMeanwhile.length, 'other call')} made meanwhile ${answeredText(answeredMeanwhile)}`,
        ...tries,
        answeredMeanwhile[0]!,
      ),
    );
  }
  const unjudged =
    !insistedOnAny
      ? `no body was sent ${READS_BEFORE_GIVING_UP} times over two poll intervals, so the failures may have been passing`
      : comparable
        ? `so did every other call made meanwhile: the provisioner looked down, which says nothing about the bodies`
        : `no other call was made meanwhile: nothing shows the provisioner answers any call`;
  return { answered, silent, transient: sends.length - answered.length, unjudged };
}
