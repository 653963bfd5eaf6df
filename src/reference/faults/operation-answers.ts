import { defineFault } from '../fault.js';
import { inProgressAnswer } from '../outcomes.js';
import { proxyUnavailableReply, TEXT_TYPE } from '../responses.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/operation-answers.ts`: the answers to reads of an operation. */

const readStatus202 = defineFault({
  name: 'read-status-202',
  breaks: ['operation.status'],
  needs: { modes: ['async'] },
  summary: 'Reads of running operations answer 202.',
  readAnswer: (answer, read) => (read.phase === 'running' ? { ...answer, status: 202 } : answer),
});

const flakyReads = defineFault({
  name: 'flaky-reads',
  breaks: ['operation.transient-errors'],
  needs: { modes: ['async'] },
  summary: 'Every second read of an operation, until it has given its final answer, answers 503 with a proxy HTML page.',
  // Reads after the final answer are spared, so that the rules about final answers stay untouched.
  readAnswer: (answer, read) => (read.phase !== 'after-final' && read.operation.history.readsBeforeFinal % 2 === 0 ? proxyUnavailableReply() : answer),
});

const readTextPlain = defineFault({
  name: 'read-text-plain',
  breaks: ['operation.body'],
  needs: { modes: ['async'] },
  summary: '200 reads are labelled text/plain (the body is still JSON).',
  readAnswer: (answer) => (answer.status === 200 ? { ...answer, contentType: TEXT_TYPE } : answer),
});

const upperCaseOutcome = defineFault({
  name: 'upper-case-outcome',
  breaks: ['operation.body'],
  needs: { modes: ['mixed'] },
  summary: 'Reads of operations write each outcome in upper case (IN_PROGRESS, SUCCEEDED), as a default enum mapping does; answers to POST are right.',
  readAnswer: (answer) =>
    answer.status !== 200 || typeof answer.body === 'string'
      ? answer
      : {
          ...answer,
          body: {
            ...answer.body,
            outcome: answer.body.outcome.toUpperCase(),
            results: answer.body.results.map((result) => ({ ...result, outcome: result.outcome.toUpperCase() })),
          },
        },
});

const partialResults = defineFault({
  name: 'partial-results',
  breaks: ['operation.in-progress-results-empty'],
  needs: { modes: ['async'] },
  summary: 'in_progress reads carry the results done so far.',
  readAnswer: (answer, read) => {
    if (read.phase !== 'running' || typeof answer.body === 'string') return answer;
    // The results of the changes finished by now; at least one, so that even the first read shows some.
    const results = read.operation.final.results;
    const done = results.slice(0, Math.max(1, Math.floor(read.fraction * results.length)));
    return { ...answer, body: inProgressAnswer(answer.body.description, done) };
  },
});

const emptyProgressNote = defineFault({
  name: 'empty-progress-note',
  breaks: ['operation.in-progress-description'],
  needs: { modes: ['async'] },
  summary: 'in_progress reads have an empty description.',
  readAnswer: (answer, read) => (read.phase === 'running' && typeof answer.body !== 'string' ? { ...answer, body: { ...answer.body, description: '' } } : answer),
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [readStatus202, flakyReads, readTextPlain, upperCaseOutcome, partialResults, emptyProgressNote] as const;
