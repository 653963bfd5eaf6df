import { formatMs } from '../../config/duration.js';
import type { Exchange } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { acceptedOperationId, bodyObject, isContractJsonType, submissions } from '../../transcript/views.js';
import type { Evidence, JudgeContext, Judgement } from '../types.js';
import { findPatterns, parseCanonicalUuid, soundUuid, uuidProblem, versionMeaning } from '../uuid.js';
import { broken, describeType, evidence, held, notExercised, plural, requestLabel } from './judgement.js';

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

function isOkStatus(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status === 200 || status === 202;
}

function accepted(transcript: Transcript): Exchange[] {
  return submissions(transcript).filter((e) => e.response?.status === 202);
}

/** 202 answers whose body is a JSON object; anything else is answer.json's business. */
function acceptedObjects(transcript: Transcript): Array<{ exchange: Exchange; body: Record<string, unknown> }> {
  return accepted(transcript).flatMap((exchange) => {
    const body = bodyObject(exchange);
    return body ? [{ exchange, body }] : [];
  });
}

/** 202 answers with a string operationId, in transcript order. */
function acceptedIds(transcript: Transcript): Array<{ exchange: Exchange; id: string }> {
  return accepted(transcript).flatMap((exchange) => {
    const id = acceptedOperationId(exchange);
    return id === undefined ? [] : [{ exchange, id }];
  });
}

/** Why no operationId could be judged: no 202 at all, or 202s without a string operationId. */
function noIdsReason(transcript: Transcript): string {
  return accepted(transcript).length === 0
    ? 'the provisioner never answered 202, so no operationId was checked'
    : 'no 202 answer carried a string operationId (accepted.body reports that)';
}

export function answerStatus(transcript: Transcript, _context: JudgeContext): Judgement {
  const sent = submissions(transcript);
  if (sent.length === 0) return notExercised(NO_SUBMISSIONS);
  const wrong = sent.filter((e) => !isOkStatus(e));
  if (wrong.length === 0) return held(`${plural(sent.length, 'answer')} to plan and apply, all 200 or 202`);
  const notes = wrong.map((e) =>
    evidence(e.response ? `${requestLabel(e)} answered ${e.response.status}` : `${requestLabel(e)} got ${noAnswerText(e)}`, e),
  );
  return broken(`${wrong.length} of ${plural(sent.length, 'plan or apply call')} did not get 200 or 202`, notes);
}

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

export function answerJson(transcript: Transcript, _context: JudgeContext): Judgement {
  const answered = submissions(transcript).filter(isOkStatus);
  if (answered.length === 0) return notExercised('no plan or apply was answered 200 or 202');
  const notes: Evidence[] = [];
  for (const exchange of answered) {
    const problems: string[] = [];
    const contentType = exchange.response!.headers['content-type'];
    if (!isContractJsonType(contentType)) {
      problems.push(contentType ? `content type ${contentType} is not a JSON type` : 'no content type');
    }
    const body = bodyProblem(exchange);
    if (body) problems.push(body);
    if (problems.length > 0) {
      notes.push(evidence(`${requestLabel(exchange)} answered ${exchange.response!.status}: ${problems.join('; ')}`, exchange));
    }
  }
  if (notes.length === 0) return held(`${plural(answered.length, 'answer')} with status 200 or 202, all JSON objects with a JSON content type`);
  return broken(`${notes.length} of ${plural(answered.length, 'answer')} with status 200 or 202 are not JSON objects with a JSON content type`, notes);
}

export function answerPrompt(transcript: Transcript, context: JudgeContext): Judgement {
  const limit = context.answerTimeoutMs;
  const timed = submissions(transcript).filter((e) => e.response || e.error?.kind === 'timeout');
  if (timed.length === 0) return notExercised('no plan or apply was answered, so no answer time was measured');
  const slow = timed.filter((e) => e.error?.kind === 'timeout' || elapsed(e) > limit);
  const slowest = Math.max(...timed.map(elapsed));
  const summary = `the slowest took ${formatMs(slowest)} (limit ${formatMs(limit)})`;
  if (slow.length === 0) return held(`${plural(timed.length, 'answer')} to plan and apply; ${summary}`);
  const notes = slow.map((e) =>
    evidence(
      e.response
        ? `${requestLabel(e)} answered after ${formatMs(elapsed(e))} (limit ${formatMs(limit)})`
        : `${requestLabel(e)} got ${noAnswerText(e)} (limit ${formatMs(limit)})`,
      e,
    ),
  );
  return broken(`${slow.length} of ${plural(timed.length, 'plan or apply call')} were not answered within ${formatMs(limit)}; ${summary}`, notes);
}

export function acceptedBody(transcript: Transcript, _context: JudgeContext): Judgement {
  const bodies = acceptedObjects(transcript);
  if (bodies.length === 0) {
    return notExercised(
      accepted(transcript).length === 0
        ? 'the provisioner never answered 202'
        : 'no 202 answer had a JSON object body (answer.json reports those)',
    );
  }
  const notes = bodies
    .filter(({ body }) => typeof body.operationId !== 'string')
    .map(({ exchange, body }) => {
      const keys = Object.keys(body);
      const what =
        body.operationId === undefined
          ? `has no operationId (fields: ${keys.length > 0 ? keys.join(', ') : 'none'})`
          : `has an operationId that is ${describeType(body.operationId)} (${JSON.stringify(body.operationId)}), not a string`;
      return evidence(`the 202 answer to ${requestLabel(exchange)} ${what}`, exchange);
    });
  if (notes.length === 0) return held(`${plural(bodies.length, 'answer')} with status 202, each with a string operationId`);
  return broken(`${notes.length} of ${plural(bodies.length, 'answer')} with status 202 lack a string operationId`, notes);
}

export function acceptedOnlyOperationId(transcript: Transcript, _context: JudgeContext): Judgement {
  const bodies = acceptedObjects(transcript).filter(({ body }) => typeof body.operationId === 'string');
  if (bodies.length === 0) return notExercised(noIdsReason(transcript));
  const notes = bodies.flatMap(({ exchange, body }) => {
    const others = Object.keys(body).filter((key) => key !== 'operationId');
    return others.length === 0
      ? []
      : [evidence(`the 202 answer to ${requestLabel(exchange)} holds fields besides operationId: ${others.join(', ')}`, exchange)];
  });
  if (notes.length === 0) return held(`${plural(bodies.length, 'answer')} with status 202, each holding only operationId`);
  return broken(`${notes.length} of ${plural(bodies.length, 'answer')} with status 202 hold more than operationId`, notes);
}

export function acceptedOperationIdUuid(transcript: Transcript, _context: JudgeContext): Judgement {
  const ids = acceptedIds(transcript);
  if (ids.length === 0) return notExercised(noIdsReason(transcript));
  const notes = ids.flatMap(({ exchange, id }) => {
    const problem = uuidProblem(id);
    return problem ? [evidence(`operationId ${JSON.stringify(id)} from ${requestLabel(exchange)} ${problem}`, exchange)] : [];
  });
  if (notes.length === 0) return held(`${plural(ids.length, 'operationId')}, all canonical UUIDs with the RFC 9562 variant`);
  return broken(`${notes.length} of ${plural(ids.length, 'operationId')} are not sound UUIDs`, notes);
}

/** Two spellings of one UUID (upper and lower case) are the same id. */
function identity(id: string): string {
  return parseCanonicalUuid(id)?.hex ?? id;
}

export function acceptedOperationIdUnique(transcript: Transcript, _context: JudgeContext): Judgement {
  const ids = acceptedIds(transcript);
  if (ids.length === 0) return notExercised(noIdsReason(transcript));
  const firstSeen = new Map<string, Exchange>();
  const notes: Evidence[] = [];
  for (const { exchange, id } of ids) {
    const first = firstSeen.get(identity(id));
    if (first) {
      notes.push(
        evidence(
          `${requestLabel(exchange)} (seq ${exchange.seq}) answered operationId ${id}, already given to ${requestLabel(first)} (seq ${first.seq})`,
          exchange,
          first,
        ),
      );
    } else {
      firstSeen.set(identity(id), exchange);
    }
  }
  if (notes.length === 0) return held(`${plural(ids.length, 'operationId')} from 202 answers, all different`);
  return broken(`${plural(notes.length, 'operationId')} given more than once`, notes);
}

export function acceptedOperationIdRandom(transcript: Transcript, _context: JudgeContext): Judgement {
  const uuids = acceptedIds(transcript).flatMap(({ exchange, id }) => {
    const uuid = soundUuid(id);
    return uuid ? [{ exchange, id, uuid }] : [];
  });
  if (uuids.length === 0) {
    return notExercised(
      accepted(transcript).length === 0
        ? 'the provisioner never answered 202, so no operationId was checked'
        : 'no operationId was a sound UUID, so its source could not be judged (accepted.operation-id-uuid reports that)',
    );
  }
  const notes: Evidence[] = [];
  for (const { exchange, id, uuid } of uuids) {
    if (uuid.version !== 4) {
      notes.push(evidence(`operationId ${id} from ${requestLabel(exchange)} is a version ${uuid.version} UUID (${versionMeaning(uuid.version)}), not version 4 (random)`, exchange));
    }
  }
  // Repeats are accepted.operation-id-unique's business: look for patterns among distinct ids only.
  const distinct = new Map<string, { exchange: Exchange; id: string }>();
  for (const { exchange, id, uuid } of uuids) {
    if (uuid.version === 4 && !distinct.has(uuid.hex)) distinct.set(uuid.hex, { exchange, id });
  }
  const candidates = [...distinct.values()];
  for (const pattern of findPatterns([...distinct.keys()])) {
    const members = pattern.ids.map((i) => candidates[i]!);
    const names = members.map((m) => `${m.id} (seq ${m.exchange.seq})`).join(' and ');
    notes.push(evidence(`operationId${members.length > 1 ? 's' : ''} ${names} ${pattern.description}`, ...members.map((m) => m.exchange)));
  }
  if (notes.length === 0) return held(`${plural(uuids.length, 'operationId')}, all version 4 UUIDs with no visible pattern`);
  return broken(`${plural(notes.length, 'sign')} that operationIds do not come from a random source`, notes);
}
