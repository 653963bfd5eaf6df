import { plural } from '../../core/text.js';
import { operationBodyProblems } from '../../shapes/index.js';
import type { Exchange, RecordedResponse } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import type { OperationView } from '../../transcript/views.js';
import { bodyObject, isContractJsonType, isTransient, operations, readsSurelyBeforeFinal } from '../../transcript/views.js';
import { broken, evidence, held, notExercised } from '../support/judgement.js';
import { proxyOf, proxyWords } from '../support/answered-by.js';
import { answered, firstFinalRead, knownReads, noOperationRead, readSinceAccepted } from '../support/operation-reads.js';
import type { Evidence, Judgement, Rule } from '../types.js';

/** Rules about the answers to reads of an operation before its final answer: status, shape, progress notes. */

const MAX_DESCRIPTION_CHARACTERS = 500;

interface InProgressAnswer {
  op: OperationView;
  read: Exchange;
  /** The answer's body, an object that says in_progress. */
  body: Record<string, unknown>;
}

/** Reads of known operations that answered 200 with an in_progress body, or why a rule about them is not exercised. */
function inProgressAnswers(transcript: Transcript): { answers: InProgressAnswer[] } | { none: Judgement } {
  const none = noOperationRead(transcript);
  if (none) return { none };
  const answers = knownReads(operations(transcript)).flatMap(({ op, read }) => {
    const body = bodyObject(read);
    return read.response?.status === 200 && body?.outcome === 'in_progress' ? [{ op, read, body }] : [];
  });
  return answers.length > 0 ? { answers } : { none: notExercised('no read answered in_progress') };
}

/** operation.status: before its final answer, an operation answers 200 (404 and transient answers are judged elsewhere). */
export const operationStatus: Rule = {
  id: 'operation.status',
  level: 'MUST',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Reads of running work answer 200',
  sentence: 'A read of an operation that has not given its final answer yet answers 200 (a 5xx is tolerated as transient); any other status fails.',
  judge(transcript) {
    const none = noOperationRead(transcript);
    if (none) return none;
    const ops = operations(transcript);
    // Only reads that surely reached the provisioner before it gave a final answer (happens-before), and the read
    // that got it: a read under way meanwhile may have come after the final answer, which other rules judge.
    // Stryker disable OptionalChaining: a read that is not transient got an answer
    const judged = ops.flatMap((op) =>
      [...readsSurelyBeforeFinal(op), firstFinalRead(op)]
        .filter((read): read is Exchange => read !== undefined && !isTransient(read) && read.response?.status !== 404)
        .map((read) => ({ op, read })),
    );
    // Stryker restore OptionalChaining
    if (judged.length === 0) return notExercised('no read before a final answer got an answer other than 404 or a transient error');
    // Stryker disable next-line OptionalChaining: a read that is not transient got an answer
    const wrong = judged.filter(({ read }) => read.response?.status !== 200);
    const opCount = new Set(judged.map(({ op }) => op)).size;
    if (wrong.length === 0) return held(`${plural(judged.length, 'read')} of ${plural(opCount, 'operation')} before the final answer, all answered 200`);
    return broken(
      `${wrong.length} of ${plural(judged.length, 'read')} before the final answer did not answer 200`,
      wrong.map(({ op, read }) => evidence(`${readSinceAccepted(op, read)} ${answered(read)} instead of 200`, read, op.accepted)),
    );
  },
};

/** What a transient read got, as the verb of a count: "answered 502", "timed out"; a proxy's answers apart. */
function transientWords(read: Exchange): string {
  const error = read.error;
  if (!error) {
    const proxy = proxyOf(read);
    return proxy ? `were answered ${read.response!.status} by ${proxyWords(proxy)}` : `answered ${read.response!.status}`;
  }
  switch (error.kind) {
    case 'timeout':
      return 'timed out';
    case 'refused':
      return 'had their connection refused';
    case 'reset':
      return 'had their connection reset';
    case 'dns':
      return 'failed on a host name that did not resolve';
    default:
      return 'failed without an answer';
  }
}

/**
 * "9 of 53 polls, and 18 of 106 probe reads, answered 502": the control plane's own reads are counted
 * apart from the kit's probes, whose extra readers may be what a proxy or the provisioner struggled with.
 */
function transientCount(words: string, reads: readonly Exchange[], polls: number, probes: number): string {
  const fromPolls = reads.filter((read) => !read.probe).length;
  const fromProbes = reads.length - fromPolls;
  const parts = [
    ...(fromPolls > 0 ? [`${fromPolls} of ${plural(polls, 'poll')}`] : []),
    ...(fromProbes > 0 ? [`${fromProbes} of ${plural(probes, 'probe read')}`] : []),
  ];
  return parts.length === 2 ? `${parts[0]}, and ${parts[1]}, ${words}` : `${parts[0]} ${words}`;
}

/** operation.transient-errors: every 5xx, timeout or broken connection of a read is counted, polls apart from probes. */
export const operationTransientErrors: Rule = {
  id: 'operation.transient-errors',
  level: 'SHOULD',
  section: 'reads',
  view: 'without-restart',
  timing: true,
  situations: ['read', 'read-after-final'],
  judgedInCases: [],
  judgedAcrossTraffic: false,
  title: 'Reads answer without transient errors',
  sentence:
    'Reads answer without 5xx statuses, timeouts or refused connections; the control plane reads again after those, so each is counted as a warning.',
  judge(transcript) {
    const none = noOperationRead(transcript);
    if (none) return none;
    const reads = knownReads(operations(transcript)).map(({ read }) => read);
    const polls = reads.filter((read) => !read.probe).length;
    const probes = reads.length - polls;
    const counted = probes > 0 ? `${plural(polls, 'poll')} and ${plural(probes, 'probe read')}` : plural(polls, 'poll');
    const transient = knownReads(operations(transcript)).filter(({ read }) => isTransient(read));
    if (transient.length === 0) return held(`${counted}, none answered 5xx, timed out or lost its connection`);
    const byWords = new Map<string, Exchange[]>();
    for (const { read } of transient) {
      const words = transientWords(read);
      byWords.set(words, [...(byWords.get(words) ?? []), read]);
    }
    const counts = [...byWords].map(([words, group]) => transientCount(words, group, polls, probes));
    return broken(
      counts.join('; '),
      transient.map(({ op, read }) => evidence(`${readSinceAccepted(op, read)} ${answered(read)}`, read)),
    );
  },
};

/** What is wrong with a 200 read's content type and body, one phrase per fault; the body's shape is the schema's. */
function bodyFaults(response: RecordedResponse): string[] {
  const faults: string[] = [];
  const contentType = response.headers['content-type'];
  if (!isContractJsonType(contentType)) faults.push(contentType ? `content type is ${contentType}, not JSON` : 'no content type');
  if (!response.json.ok) return [...faults, 'body is not JSON'];
  return [...faults, ...operationBodyProblems(response.json.value)];
}

/** operation.body: a 200 read is a JSON outcome object. */
export const operationBody: Rule = {
  id: 'operation.body',
  level: 'MUST',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read', 'read-after-final'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Reads have the outcome shape',
  sentence:
    'A 200 read carries a JSON content type and a JSON object with outcome in_progress, succeeded or failed, a string description and a results array.',
  judge(transcript) {
    const none = noOperationRead(transcript);
    if (none) return none;
    const ok = knownReads(operations(transcript)).flatMap(({ op, read }) => (read.response?.status === 200 ? [{ op, read, response: read.response }] : []));
    if (ok.length === 0) return notExercised('no read of an operation answered 200');
    const faulty: Evidence[] = [];
    for (const { op, read, response } of ok) {
      const faults = bodyFaults(response);
      if (faults.length > 0) faulty.push(evidence(`${readSinceAccepted(op, read)} answered 200, but ${faults.join('; ')}`, read));
    }
    if (faulty.length === 0) return held(`${plural(ok.length, 'read')} answered 200, all with a JSON outcome object`);
    return broken(`${faulty.length} of ${plural(ok.length, 'read')} answering 200 lack the outcome shape`, faulty);
  },
};

/** operation.in-progress-results-empty: in_progress answers hold no results. */
export const operationInProgressResultsEmpty: Rule = {
  id: 'operation.in-progress-results-empty',
  level: 'MUST',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read', 'read-after-final'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'No results while in progress',
  sentence: 'While an operation answers in_progress, its results array is empty.',
  judge(transcript) {
    const found = inProgressAnswers(transcript);
    if ('none' in found) return found.none;
    const inProgress = found.answers;
    // A missing or non-array results is operation.body's fault, not this rule's.
    const withResults = inProgress.filter(({ body }) => Array.isArray(body.results));
    if (withResults.length === 0) return notExercised('no in_progress answer carried a results array (operation.body reports that)');
    const filled = withResults.filter(({ body }) => (body.results as unknown[]).length > 0);
    if (filled.length === 0) return held(`${plural(withResults.length, 'in_progress answer')}, all with empty results`);
    return broken(
      `${filled.length} of ${plural(withResults.length, 'in_progress answer')} held results`,
      filled.map(({ op, read, body }) => {
        const results = body.results as unknown[];
        return evidence(`${readSinceAccepted(op, read)} said in_progress but held ${plural(results.length, 'result')}`, read);
      }),
    );
  },
};

/** Why an in_progress description is not a short progress note, or undefined when it is one. */
function descriptionFault(description: unknown): string | undefined {
  if (typeof description !== 'string') return description === undefined ? 'has no description' : 'has a description that is not a string';
  if (description.trim() === '') return 'has an empty description';
  // No string of at most this many UTF-16 units holds more characters: most notes are never counted.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; counting the characters gives the same answer
  if (description.length <= MAX_DESCRIPTION_CHARACTERS) return undefined;
  const characters = codePoints(description);
  if (characters > MAX_DESCRIPTION_CHARACTERS) return `has a description of ${characters} characters (at most ${MAX_DESCRIPTION_CHARACTERS})`;
  return undefined;
}

/**
 * The characters (code points) of a text, as `[...text].length` counts them, without the array of one string a
 * character that spreading makes: judged on every in_progress read, a long echoed note made one of hundreds of KB each time.
 */
function codePoints(text: string): number {
  let count = text.length;
  // Stryker disable next-line EqualityOperator,ArithmeticOperator: past the end charCodeAt gives NaN, which pairs with nothing
  for (let at = 0; at < text.length - 1; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        at++;
      }
    }
  }
  return count;
}

/** operation.in-progress-description: in_progress answers carry a short, non-empty progress note. */
export const operationInProgressDescription: Rule = {
  id: 'operation.in-progress-description',
  level: 'SHOULD',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read', 'read-after-final'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'In-progress answers carry a progress note',
  sentence: 'An in_progress answer has a progress note in description that is not empty and at most 500 characters long.',
  judge(transcript) {
    const found = inProgressAnswers(transcript);
    if ('none' in found) return found.none;
    const inProgress = found.answers;
    const faulty: Evidence[] = [];
    for (const { op, read, body } of inProgress) {
      const fault = descriptionFault(body.description);
      if (fault) faulty.push(evidence(`${readSinceAccepted(op, read)} said in_progress but ${fault}`, read));
    }
    if (faulty.length === 0) return held(`${plural(inProgress.length, 'in_progress answer')}, all with a short progress note`);
    return broken(`${faulty.length} of ${plural(inProgress.length, 'in_progress answer')} lack a short progress note`, faulty);
  },
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [operationStatus, operationTransientErrors, operationBody, operationInProgressResultsEmpty, operationInProgressDescription];
