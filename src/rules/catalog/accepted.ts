import { plural } from '../../core/text.js';
import { acceptedBodyProblems, acceptedOnlyOperationIdProblems } from '../../shapes/index.js';
import type { Exchange } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { acceptedOperationId, bodyObject, submissions } from '../../transcript/views.js';
import { neverAnswered } from '../support/answered-by.js';
import { noAnswerThatWay } from '../support/answer-ways.js';
import { broken, evidence, held, notExercised, requestLabel } from '../support/judgement.js';
import type { Evidence, Judgement, Rule } from '../types.js';
import { findPatterns, parseCanonicalUuid, soundUuid, uuidProblem, versionMeaning } from '../support/uuid.js';

/** Rules about 202 answers and the operationIds they carry. */

function accepted(transcript: Transcript): Exchange[] {
  return submissions(transcript).filter((e) => e.response?.status === 202);
}

/** A 202 answer and its body, a JSON object. */
interface AcceptedObject {
  exchange: Exchange;
  body: Record<string, unknown>;
}

/** 202 answers whose body is a JSON object; anything else is answer.json's business. */
function acceptedObjects(transcript: Transcript): AcceptedObject[] {
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

/** Why no 202 answer could be judged: not applicable when the provisioner answered every call at once. */
function noAccepted(transcript: Transcript, otherwise: string): Judgement {
  return noAnswerThatWay(transcript, 202, 'no 202 answer to judge', otherwise);
}

/** Why no operationId could be judged: no 202 at all, or 202s without a string operationId. */
function noIds(transcript: Transcript): Judgement {
  return accepted(transcript).length === 0
    ? noAccepted(transcript, `${neverAnswered(transcript, 202, 'the provisioner never answered 202')}, so no operationId was checked`)
    : notExercised('no 202 answer carried a string operationId (accepted.body reports that)');
}

/**
 * The verdict on 202 bodies by what the shapes say of each: one note per sentence, which says what "the 202
 * answer" does; `each` ends the message when all hold, `lack` when some do not.
 */
function shapeVerdict(
  bodies: readonly AcceptedObject[],
  problems: (body: Record<string, unknown>) => string[],
  words: { each: string; lack: string },
): Judgement {
  const notes = bodies.flatMap(({ exchange, body }) => problems(body).map((sentence) => evidence(`the 202 answer to ${requestLabel(exchange)} ${sentence}`, exchange)));
  if (notes.length === 0) return held(`${plural(bodies.length, 'answer')} with status 202, each ${words.each}`);
  return broken(`${notes.length} of ${plural(bodies.length, 'answer')} with status 202 ${words.lack}`, notes);
}

export const acceptedBody: Rule = {
  id: 'accepted.body',
  level: 'MUST',
  section: 'answers',
  view: 'without-restart',
  timing: false,
  situations: ['call'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: '202 carries an operationId',
  sentence: 'The body of a 202 answer has an operationId field whose value is a string.',
  judge(transcript) {
    const bodies = acceptedObjects(transcript);
    if (bodies.length === 0) {
      return accepted(transcript).length === 0
        ? noAccepted(transcript, neverAnswered(transcript, 202, 'the provisioner never answered 202'))
        : notExercised('no 202 answer had a JSON object body (answer.json reports those)');
    }
    return shapeVerdict(bodies, acceptedBodyProblems, { each: 'with a string operationId', lack: 'lack a string operationId' });
  },
};

export const acceptedOnlyOperationId: Rule = {
  id: 'accepted.only-operation-id',
  level: 'SHOULD',
  section: 'answers',
  view: 'without-restart',
  timing: false,
  situations: ['call'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: '202 carries nothing but the operationId',
  sentence: 'The body of a 202 answer has no field besides operationId.',
  judge(transcript) {
    const bodies = acceptedObjects(transcript).filter(({ body }) => acceptedBodyProblems(body).length === 0);
    if (bodies.length === 0) return noIds(transcript);
    return shapeVerdict(bodies, acceptedOnlyOperationIdProblems, { each: 'holding only operationId', lack: 'hold more than operationId' });
  },
};

export const acceptedOperationIdUuid: Rule = {
  id: 'accepted.operation-id-uuid',
  level: 'MUST',
  section: 'answers',
  view: 'without-restart',
  timing: false,
  situations: ['call'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'operationId is a UUID',
  sentence:
    'An operationId is a UUID written canonically (8-4-4-4-12 hexadecimal digits with the RFC 9562 variant), and neither the nil nor the max UUID.',
  judge(transcript) {
    const ids = acceptedIds(transcript);
    if (ids.length === 0) return noIds(transcript);
    const notes = ids.flatMap(({ exchange, id }) => {
      const problem = uuidProblem(id);
      return problem ? [evidence(`operationId ${JSON.stringify(id)} from ${requestLabel(exchange)} ${problem}`, exchange)] : [];
    });
    if (notes.length === 0) return held(`${plural(ids.length, 'operationId')}, all canonical UUIDs with the RFC 9562 variant`);
    return broken(`${notes.length} of ${plural(ids.length, 'operationId')} are not sound UUIDs`, notes);
  },
};

/** Two spellings of one UUID (upper and lower case) are the same id. */
function identity(id: string): string {
  return parseCanonicalUuid(id)?.hex ?? id;
}

export const acceptedOperationIdUnique: Rule = {
  id: 'accepted.operation-id-unique',
  level: 'MUST',
  section: 'answers',
  view: 'without-restart',
  timing: false,
  situations: ['call', 'repeat'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: true,
  title: 'operationIds are never reused',
  sentence: 'Two 202 answers in one run never carry the same operationId, not even when the same change set is sent twice.',
  judge(transcript) {
    const ids = acceptedIds(transcript);
    if (ids.length === 0) return noIds(transcript);
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
  },
};

export const acceptedOperationIdRandom: Rule = {
  id: 'accepted.operation-id-random',
  level: 'SHOULD',
  section: 'answers',
  view: 'without-restart',
  timing: false,
  situations: ['call'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'operationIds are random',
  sentence: 'An operationId is drawn from a random source (a version 4 UUID); name-based, time-based or patterned ids are warned about.',
  judge(transcript) {
    const uuids = acceptedIds(transcript).flatMap(({ exchange, id }) => {
      const uuid = soundUuid(id);
      return uuid ? [{ exchange, id, uuid }] : [];
    });
    if (uuids.length === 0) {
      return accepted(transcript).length === 0
        ? noIds(transcript)
        : notExercised('no operationId was a sound UUID, so its source could not be judged (accepted.operation-id-uuid reports that)');
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
  },
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [acceptedBody, acceptedOnlyOperationId, acceptedOperationIdUuid, acceptedOperationIdUnique, acceptedOperationIdRandom];
