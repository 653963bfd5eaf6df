import { formatMs } from '../../core/duration.js';
import { plural } from '../../core/text.js';
import type { Exchange } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { isContractJsonType, isTransient } from '../../transcript/views.js';
import { broken, evidence, held, notExercised } from '../support/judgement.js';
import { allReads, answered, printableId } from '../support/operation-reads.js';
import { answeredText, judgeSilentIds, judgeUnansweredUnknownIds, silenceUnjudged } from '../support/unanswered-ids.js';
import type { Evidence, Rule } from '../types.js';
import { NO_OBSERVED_MALFORMED_READ, noObservedUnknownRead } from '../support/observed-ids.js';

/** Rules about reads of ids the provisioner never issued: unknown UUIDs, malformed ids, and how a 404 looks. */

function tagged(transcript: Transcript, tag: 'read-unknown' | 'read-malformed'): Exchange[] {
  return transcript.exchanges.filter((e) => e.tag === tag).sort((a, b) => a.sentAt - b.sentAt);
}

/** operation.unknown-404: a random id is unknown, and reading it does not make it known. */
export const operationUnknown404: Rule = {
  id: 'operation.unknown-404',
  level: 'MUST',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['unknown-id'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Unknown ids answer 404',
  sentence:
    'A read of a random UUID the provisioner never issued answers 404, and reading it does not create it: a second read answers 404 too. A 5xx is no answer, so the id is read again over two poll intervals; an unknown id that answers nothing but 5xx while reads of known operations are answered fails.',
  judge(transcript, context) {
    const sent = tagged(transcript, 'read-unknown');
    if (sent.length === 0) return notExercised(context.observed ? noObservedUnknownRead(context) : 'no unknown id was read');
    // Transient failures say nothing about the id: only reads the provisioner answered below 500 count.
    const reads = sent.flatMap((read) => (read.response && !isTransient(read) ? [{ read, status: read.response.status }] : []));
    if (reads.length === 0) return judgeUnansweredUnknownIds(transcript, context, sent);
    const firstById = new Map<string, { read: Exchange; status: number }>();
    const faults: Evidence[] = [];
    for (const answer of reads) {
      const { read, status } = answer;
      const id = read.operationId ?? '';
      const first = firstById.get(id);
      if (!first) firstById.set(id, answer);
      if (status === 404) continue;
      const note =
        first && first.status !== status
          ? `a read of the unknown id ${printableId(id)} ${formatMs(read.sentAt - first.read.sentAt)} after the first ${answered(read)} where the first answered ${first.status}: reading it created it`
          : `the read of the unknown id ${printableId(id)} ${answered(read)} instead of 404`;
      faults.push(first ? evidence(note, read, first.read) : evidence(note, read));
    }
    const transient = sent.length - reads.length;
    const leftOut = transient > 0 ? `; ${transient} more failed transiently and say nothing` : '';
    if (faults.length === 0) return held(`${plural(reads.length, 'read')} of ${plural(firstById.size, 'unknown id')}, all answered 404${leftOut}`);
    return broken(`${faults.length} of ${plural(reads.length, 'read')} of unknown ids did not answer 404`, faults);
  },
};

/** operation.404-identifiable: a 404 of the provisioner is JSON, unlike a router's or proxy's 404 page. */
export const operation404Identifiable: Rule = {
  id: 'operation.404-identifiable',
  level: 'ADVICE',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read', 'read-after-final', 'unknown-id', 'malformed-id'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: '404 answers are recognisable',
  sentence:
    'A 404 from the provisioner has a JSON content type and a JSON body, so that it cannot be taken for a 404 from a router or proxy in front of it.',
  judge(transcript) {
    const notFound = allReads(transcript).flatMap((read) => (read.response?.status === 404 ? [{ read, response: read.response }] : []));
    if (notFound.length === 0) return notExercised('no read answered 404');
    const faults: Evidence[] = [];
    for (const { read, response } of notFound) {
      const contentType = response.headers['content-type'];
      const problems: string[] = [];
      if (!isContractJsonType(contentType)) problems.push(contentType ? `content type ${contentType}` : 'no content type');
      if (!response.json.ok) problems.push('a body that is not JSON');
      if (problems.length > 0) faults.push(evidence(`the 404 to the read of ${printableId(read.operationId)} has ${problems.join(' and ')}`, read));
    }
    if (faults.length === 0) return held(`${plural(notFound.length, 'read')} answered 404, all with a JSON content type and body`);
    return broken(`${faults.length} of ${plural(notFound.length, 'read')} answering 404 could be taken for a 404 from a router or proxy`, faults);
  },
};

/** operation.malformed-id: an id that is not a UUID is rejected with 400 or 404; a crash or hang is not a rejection. */
export const operationMalformedId: Rule = {
  id: 'operation.malformed-id',
  level: 'SHOULD',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['malformed-id'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Malformed ids are rejected cleanly',
  sentence:
    'A read whose id is not a UUID answers 400 or 404, never 200 and never a 5xx. A 5xx or a timeout is no answer, so the id is read again over two poll intervals; a malformed id that answers nothing but 5xx while reads of known operations are answered fails.',
  judge(transcript, context) {
    const sent = tagged(transcript, 'read-malformed');
    if (sent.length === 0) return notExercised(context.observed ? NO_OBSERVED_MALFORMED_READ : 'no malformed id was read');
    const answers = sent.filter((read) => !isTransient(read));
    const answeredIds = new Set(answers.map((read) => read.operationId));
    const wrong = answers.filter((read) => read.response!.status !== 400 && read.response!.status !== 404);
    const faults = wrong.map((read) => evidence(`the read of the malformed id ${printableId(read.operationId)} ${answered(read)}, not 400 or 404`, read));
    // Ids no read of which got an answer: silent for good only when insisted on while known reads were answered.
    const unanswered = sent.filter((read) => !answeredIds.has(read.operationId));
    const silent = unanswered.length > 0 ? judgeSilentIds(transcript, context, unanswered, 'malformed id') : undefined;
    const transient = sent.length - answers.length;
    if (wrong.length > 0 || (silent?.faults.length ?? 0) > 0) {
      const parts = [
        ...(wrong.length > 0 ? [`${wrong.length} of ${plural(answers.length, 'read')} of malformed ids did not answer 400 or 404`] : []),
        ...(silent && silent.faults.length > 0
          ? [`${plural(silent.faults.length, 'malformed id')} answered nothing but 5xx or no answer, while reads of known operations ${answeredText(silent.answeredMeanwhile)}`]
          : []),
      ];
      return broken(parts.join('; '), [...faults, ...(silent?.faults ?? [])]);
    }
    if (answers.length === 0) return notExercised(`every read of a malformed id failed transiently, and ${silenceUnjudged(silent!, 'malformed id')}`);
    const leftOut = transient > 0 ? `; ${transient} more failed transiently and say nothing` : '';
    return held(`${plural(answers.length, 'read')} of malformed ids, all answered 400 or 404${leftOut}`);
  },
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [operationUnknown404, operation404Identifiable, operationMalformedId];
