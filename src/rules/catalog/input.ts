import { plural } from '../../core/text.js';
import type { Exchange } from '../../transcript/exchange.js';
import { READ_TAGS } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { acceptedOperationId, isFinalAnswer, outcomeOf, pollEnds } from '../../transcript/views.js';
import type { JudgeContext } from '../../core/judge-context.js';
import { deadlineFinding } from '../support/deadline-evidence.js';
import { statusAnswered } from '../support/answered-by.js';
import { broken, evidence, held, notExercised, requestLabel } from '../support/judgement.js';
import { sortBadBodySends } from '../support/bad-body-sends.js';
import type { Evidence, Rule } from '../types.js';

/** Rules about bad input: bodies that are not JSON, and JSON that is not a change set. */

/** Of a send the provisioner answered (below 500: the only ones judged), whether it answered 4xx. */
function isClientError(exchange: Exchange): boolean {
  return exchange.response!.status >= 400;
}

function bodyNote(exchange: Exchange): string {
  const body = exchange.request.body ?? '';
  const chars = Array.from(body);
  const shown = chars.length <= 60 ? body : `${chars.slice(0, 60).join('')}…`;
  return `${JSON.stringify(shown)}${chars.length > 60 ? ` (${chars.length} characters)` : ''}`;
}

/** `POST /plan with "{\"changes\": ["`: a bad-input send as a note names it. */
function sendLabel(exchange: Exchange): string {
  return `${requestLabel(exchange)} with ${bodyNote(exchange)}`;
}

/** input.malformed-json: a body that is not JSON gets a 4xx: never 2xx, never 5xx, never silence. */
export const inputMalformedJson: Rule = {
  id: 'input.malformed-json',
  level: 'SHOULD',
  section: 'bad-input',
  view: 'without-restart',
  timing: false,
  situations: ['bad-input'],
  judgedInCases: ['malformed-json'],
  judgedAcrossTraffic: false,
  title: 'Malformed JSON is a client error',
  sentence:
    'A plan or apply call whose body is not JSON answers 4xx, never 2xx and never 5xx. A 5xx or a timeout is no answer, so the body is sent again over two poll intervals; a body that gets nothing but 5xx while other calls are answered fails.',
  judge(transcript, context) {
    const probes = transcript.exchanges.filter((e) => e.tag === 'malformed-json');
    if (probes.length === 0) return notExercised('no POST with a body that is not JSON was sent');
    const sends = sortBadBodySends(transcript, context, probes, sendLabel);
    const wrong = sends.answered.filter((e) => !isClientError(e));
    const bodies = plural(sends.answered.length, 'body that is', 'bodies that are');
    const faults = [...wrong.map((e) => evidence(`${requestLabel(e)} with ${bodyNote(e)} ${statusAnswered(e)}, not a 4xx`, e)), ...sends.silent];
    if (faults.length > 0) return broken(brokenMessage(`${wrong.length} of ${bodies} not JSON did not get a 4xx answer`, wrong.length, sends.silent.length), faults);
    if (sends.answered.length === 0) return notExercised(`every POST with a body that is not JSON failed transiently, and ${sends.unjudged}`);
    return held(`${bodies} not JSON, each answered 4xx${leftOut(sends.transient)}`);
  },
};

/** The broken message: answered sends that were wrong, then bodies that got nothing but 5xx. */
function brokenMessage(wrongText: string, wrong: number, silent: number): string {
  const parts = [...(wrong > 0 ? [wrongText] : []), ...(silent > 0 ? [`${plural(silent, 'body', 'bodies')} got nothing but 5xx or no answer while other calls were answered`] : [])];
  return parts.join('; ');
}

function leftOut(transient: number): string {
  return transient > 0 ? `; ${plural(transient, 'more send')} failed transiently and say nothing` : '';
}

/** The reads the poller made of an operation a bad-input POST got accepted. */
function readsOf(transcript: Transcript, operationId: string): Exchange[] {
  return transcript.exchanges.filter((e) => READ_TAGS.includes(e.tag) && e.operationId === operationId).sort((a, b) => a.sentAt - b.sentAt);
}

/** How an invalid change set was met; undefined when the run stopped before its work ended, so it cannot be judged. */
type Verdict = { ok: true } | { ok: false; evidence: Evidence } | undefined;

/** Where a 202 to an invalid change set led: only a failed final answer is a clean refusal. */
function judgeAccepted(transcript: Transcript, context: JudgeContext, post: Exchange): Verdict {
  const id = acceptedOperationId(post);
  if (id === undefined || id === '') {
    return { ok: false, evidence: evidence(`${requestLabel(post)} with ${bodyNote(post)} answered 202 without an operationId: the work leads nowhere`, post) };
  }
  const reads = readsOf(transcript, id);
  const final = reads.find(isFinalAnswer);
  if (final) {
    if (outcomeOf(final) === 'failed') return { ok: true };
    return { ok: false, evidence: evidence(`${requestLabel(post)} with ${bodyNote(post)} was accepted and its work ended succeeded: an invalid change set was taken for a valid one`, final, post) };
  }
  const ended = pollEnds(transcript).find((e) => e.acceptedSeq === post.seq);
  // A read the control plane could not use is operation.body's to judge: what the work ended with is not known.
  if (!ended || ended.reason === 'aborted' || ended.reason === 'final' || ended.reason === 'unexpected') return undefined;
  // A deadline counts only on proof that the work outlasted it, as for operation.within-max-duration.
  if (ended.reason === 'deadline') {
    // readsOf gives them in the order they were sent.
    const work = { accepted: post, acceptedAt: post.endedAt, reads, finalReads: [] };
    if (deadlineFinding(work, ended, context.maxOperationDuration, context.pollIntervalMs).kind !== 'late') return undefined;
  }
  const last = reads[reads.length - 1];
  const why = ended.reason === 'lost' ? 'a read answered 404 before any final answer' : 'no final answer came before the deadline';
  const note = `${requestLabel(post)} with ${bodyNote(post)} answered 202, then ${why}: the work leads nowhere`;
  return { ok: false, evidence: last ? evidence(note, last, post) : evidence(note, post) };
}

function judgeInvalid(transcript: Transcript, context: JudgeContext, post: Exchange): Verdict {
  if (isClientError(post)) return { ok: true };
  const status = post.response!.status;
  if (status === 202) return judgeAccepted(transcript, context, post);
  // A 200 that says failed is a final answer, and a clean refusal.
  if (status === 200 && outcomeOf(post) === 'failed') return { ok: true };
  // Only sends answered below 500 are judged here: what one got is its status.
  const what = status === 200 ? `answered 200 with outcome ${JSON.stringify(outcomeOf(post) ?? null)}, not a failed final answer` : statusAnswered(post);
  return { ok: false, evidence: evidence(`${requestLabel(post)} with ${bodyNote(post)} ${what}`, post) };
}

/** input.invalid-change-set: JSON that is no change set gets a 4xx or a failed final answer, at once or through a 202. */
export const inputInvalidChangeSet: Rule = {
  id: 'input.invalid-change-set',
  level: 'SHOULD',
  section: 'bad-input',
  view: 'without-restart',
  timing: false,
  situations: ['bad-input'],
  judgedInCases: ['invalid-change-set'],
  judgedAcrossTraffic: false,
  title: 'Invalid change sets are refused cleanly',
  sentence:
    'A plan or apply call whose JSON body is not a change set answers 4xx or a failed final answer: never 5xx, never a hang, never a 202 that leads nowhere. A 5xx or a timeout is no answer, so the body is sent again over two poll intervals; a body that gets nothing but 5xx while other calls are answered fails.',
  judge(transcript, context) {
    const probes = transcript.exchanges.filter((e) => e.tag === 'invalid-change-set');
    if (probes.length === 0) return notExercised('no POST with a JSON body that is not a change set was sent');
    const sends = sortBadBodySends(transcript, context, probes, sendLabel);
    const verdicts = sends.answered.map((post) => judgeInvalid(transcript, context, post));
    const refused = verdicts.filter((v) => v?.ok === true).length;
    const wrong = verdicts.flatMap((v) => (v?.ok === false ? [v.evidence] : []));
    const judged = refused + wrong.length;
    const bodies = plural(judged, 'invalid change set');
    if (wrong.length + sends.silent.length > 0) {
      return broken(brokenMessage(`${wrong.length} of ${bodies} were not refused with a 4xx or a failed final answer`, wrong.length, sends.silent.length), [...wrong, ...sends.silent]);
    }
    if (sends.answered.length === 0) return notExercised(`every POST with an invalid change set failed transiently, and ${sends.unjudged}`);
    if (judged === 0) return notExercised('every invalid change set was accepted, and the run stopped before any of them ended');
    return held(`${bodies}, each refused with a 4xx or a failed final answer${leftOut(sends.transient)}`);
  },
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [inputMalformedJson, inputInvalidChangeSet];
