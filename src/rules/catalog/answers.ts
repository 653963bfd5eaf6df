import { formatMs } from '../../core/duration.js';
import { plural } from '../../core/text.js';
import { describeType } from '../../shapes/index.js';
import type { Exchange } from '../../transcript/exchange.js';
import { bodyObject, isContractJsonType, submissions } from '../../transcript/views.js';
import { proxyOf, proxyShare, statusAnswered } from '../support/answered-by.js';
import { countedCalls } from '../support/counted-calls.js';
import { broken, evidence, held, notExercised, requestLabel } from '../support/judgement.js';
import type { Evidence, Rule } from '../types.js';

/** Rules about the answers to POST /plan and POST /apply: status, JSON body, answer time. */

const NO_SUBMISSIONS = 'no plan or apply was sent';

function elapsed(exchange: Exchange): number {
  return (exchange.respondedAt ?? exchange.endedAt) - exchange.sentAt;
}

function noAnswerText(exchange: Exchange): string {
  const error = exchange.error;
  if (!error) return 'no answer';
  switch (error.kind) {
    case 'timeout':
      return `no answer: timeout after ${formatMs(exchange.endedAt - exchange.sentAt)}`;
    case 'refused':
      return `no answer: connection refused (${error.message})`;
    case 'reset':
      return `no answer: connection reset (${error.message})`;
    case 'dns':
      return `no answer: host name did not resolve (${error.message})`;
    default:
      return `no answer: ${error.message}`;
  }
}

/** A summary, and who answered in the provisioner's place when a proxy did. */
function withProxyShare(summary: string, exchanges: readonly Exchange[]): string {
  const share = proxyShare(exchanges);
  return share ? `${summary}; ${share}` : summary;
}

/** A slow answer's note: one a proxy gave says the provisioner had not answered by then. */
function slowAnswerText(exchange: Exchange, limit: number): string {
  if (!proxyOf(exchange)) return `${requestLabel(exchange)} answered after ${formatMs(elapsed(exchange))} (limit ${formatMs(limit)})`;
  return `${requestLabel(exchange)} ${statusAnswered(exchange)} (limit ${formatMs(limit)}): the provisioner had not answered by then`;
}

function isOkStatus(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status === 200 || status === 202;
}

export const answerStatus: Rule = {
  id: 'answer.status',
  level: 'MUST',
  section: 'answers',
  view: 'without-burst-repeats-or-overload',
  timing: false,
  situations: ['call'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Plan and apply answer 200 or 202',
  sentence: 'A plan or apply call with a valid change set is answered with status 200 or 202; any other status, or no answer at all, fails.',
  judge(transcript) {
    const sent = submissions(transcript);
    if (sent.length === 0) return notExercised(NO_SUBMISSIONS);
    const wrong = sent.filter((e) => !isOkStatus(e));
    if (wrong.length === 0) return held(`${plural(sent.length, 'answer')} to plan and apply (${countedCalls(answerStatus.view)}), all 200 or 202`);
    const notes = wrong.map((e) =>
      evidence(e.response ? `${requestLabel(e)} ${statusAnswered(e)}` : `${requestLabel(e)} got ${noAnswerText(e)}`, e),
    );
    return broken(withProxyShare(`${wrong.length} of ${plural(sent.length, 'plan or apply call')} (${countedCalls(answerStatus.view)}) did not get 200 or 202`, wrong), notes);
  },
};

/** What is wrong with a body that should be a JSON object, or undefined. */
function bodyProblem(exchange: Exchange): string | undefined {
  const response = exchange.response!;
  if (response.truncated) return `the body was cut at ${response.bodyBytes} bytes (truncated body), so it is no whole JSON object`;
  if (response.body.trim() === '') return 'the body is empty';
  if (!response.json.ok) return `the body is not JSON: ${response.json.error}`;
  const value = response.json.value;
  if (bodyObject(exchange)) return undefined;
  return `the body is ${describeType(value)}, not a JSON object`;
}

/**
 * How answers broke answer.json, counted apart: a wrong content type over a body that is a JSON object is not
 * the same fault as a body that is not one, and a message that lumps them says neither.
 */
class JsonProblemKinds {
  private readonly typeOnly = new Map<string, number>();
  private bodyOnly = 0;
  private both = 0;

  /** `wrongType`: what the answer had instead of a JSON content type, when it had no JSON one. */
  add(wrongType: string | undefined, bodyWrong: boolean): void {
    if (wrongType !== undefined && !bodyWrong) this.typeOnly.set(wrongType, (this.typeOnly.get(wrongType) ?? 0) + 1);
    else if (wrongType === undefined && bodyWrong) this.bodyOnly++;
    else if (bodyWrong) this.both++;
  }

  /** `140 had content type text/plain while the body was a JSON object; 2 had a JSON content type but a body that is no JSON object` */
  text(): string {
    const typeOnly = [...this.typeOnly.values()].reduce((sum, count) => sum + count, 0);
    return [
      ...(typeOnly > 0 ? [`${typeOnly} had ${[...this.typeOnly.keys()].join(' or ')} while the body was a JSON object`] : []),
      ...(this.bodyOnly > 0 ? [`${this.bodyOnly} had a JSON content type but a body that is no JSON object`] : []),
      ...(this.both > 0 ? [`${this.both} had neither a JSON content type nor a body that is a JSON object`] : []),
    ].join('; ');
  }
}

export const answerJson: Rule = {
  id: 'answer.json',
  level: 'MUST',
  section: 'answers',
  view: 'without-restart',
  timing: false,
  situations: ['call'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Answers are JSON objects',
  sentence: 'A 200 or 202 answer carries a JSON content type (application/json or a +json type) and a body that is a JSON object.',
  judge(transcript) {
    const answered = submissions(transcript).filter(isOkStatus);
    if (answered.length === 0) return notExercised('no plan or apply was answered 200 or 202');
    const notes: Evidence[] = [];
    const kinds = new JsonProblemKinds();
    for (const exchange of answered) {
      const problems: string[] = [];
      const contentType = exchange.response!.headers['content-type'];
      const typeWrong = !isContractJsonType(contentType);
      if (typeWrong) problems.push(contentType ? `content type ${contentType} is not a JSON type` : 'no content type');
      const body = bodyProblem(exchange);
      if (body) problems.push(body);
      kinds.add(typeWrong ? (contentType ? `content type ${contentType}` : 'no content type') : undefined, body !== undefined);
      if (problems.length > 0) {
        notes.push(evidence(`${requestLabel(exchange)} answered ${exchange.response!.status}: ${problems.join('; ')}`, exchange));
      }
    }
    const which = `${plural(answered.length, 'answer')} with status 200 or 202 (${countedCalls(answerJson.view)})`;
    if (notes.length === 0) return held(`${which}, all JSON objects with a JSON content type`);
    return broken(`${notes.length} of ${which} broke it: ${kinds.text()}`, notes);
  },
};

export const answerPrompt: Rule = {
  id: 'answer.prompt',
  level: 'SHOULD',
  section: 'answers',
  view: 'without-burst-calls',
  timing: true,
  situations: ['call'],
  judgedInCases: [],
  judgedAcrossTraffic: false,
  title: 'Answers come at once',
  sentence: 'Plan and apply are answered within the answer timeout; work that takes longer is accepted with 202 instead of holding the call open.',
  judge(transcript, context) {
    const limit = context.answerTimeoutMs;
    const timed = submissions(transcript).filter((e) => e.response || e.error?.kind === 'timeout');
    if (timed.length === 0) return notExercised('no plan or apply was answered, so no answer time was measured');
    const slow = timed.filter((e) => e.error?.kind === 'timeout' || elapsed(e) > limit);
    const slowest = Math.max(...timed.map(elapsed));
    const summary = `the slowest took ${formatMs(slowest)} (limit ${formatMs(limit)})`;
    const which = `(${countedCalls(answerPrompt.view)})`;
    if (slow.length === 0) return held(`${plural(timed.length, 'answer')} to plan and apply ${which}; ${summary}`);
    const notes = slow.map((e) =>
      evidence(e.response ? slowAnswerText(e, limit) : `${requestLabel(e)} got ${noAnswerText(e)} (limit ${formatMs(limit)})`, e),
    );
    return broken(withProxyShare(`${slow.length} of ${plural(timed.length, 'plan or apply call')} ${which} were not answered within ${formatMs(limit)}; ${summary}`, slow), notes);
  },
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [answerStatus, answerJson, answerPrompt];
