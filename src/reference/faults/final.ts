import { defineFault } from '../fault.js';
import { inProgressAnswer, failedResult } from '../outcomes.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/final.ts`: final answers. */

const inProgressOnPost = defineFault({
  name: 'in-progress-on-post',
  breaks: ['final.body'],
  needs: { modes: ['sync'] },
  summary: '200 answers to POST say in_progress with no results.',
  postAnswer: (answer) => (answer.status === 200 ? { ...answer, body: { ...inProgressAnswer('Working on it.') } } : answer),
});

const missingResult = defineFault({
  name: 'missing-result',
  breaks: ['final.results-match-changes'],
  needs: { modes: ['sync', 'async'] },
  summary: 'Final answers leave out the result of the last change.',
  finalAnswer: (answer) => ({ ...answer, results: answer.results.slice(0, -1) }),
});

const badResultOutcome = defineFault({
  name: 'bad-result-outcome',
  breaks: ['final.result-shape'],
  needs: { modes: ['mixed'] },
  summary: 'Results say outcome "ok" instead of succeeded.',
  finalAnswer: (answer) => ({ ...answer, results: answer.results.map((result) => ({ ...result, outcome: 'ok' })) }),
});

const inconsistentOutcome = defineFault({
  name: 'inconsistent-outcome',
  breaks: ['final.outcome-consistent'],
  needs: { modes: ['mixed'] },
  summary: 'Final answers say succeeded while their first result failed.',
  finalAnswer: (answer, call) => {
    // The overall outcome stays succeeded while the first change failed.
    const [, ...rest] = answer.results;
    return { ...answer, results: [failedResult(call.kind, call.changeSet.changes[0]!), ...rest] };
  },
});

/** Ids longer than this (in characters) lose their result: a fixed-width column. */
const LONGEST_KEPT_ID = 20;

const longIdResultLost = defineFault({
  name: 'long-id-result-lost',
  breaks: ['final.results-match-changes'],
  // The bundled change sets have short ids: only generated input finds it.
  needs: { modes: ['mixed'], property: { name: 'property/generated-plans', seed: 1 } },
  summary: 'Final answers leave out the result of every change whose id is longer than 20 characters.',
  finalAnswer: (answer) => ({ ...answer, results: answer.results.filter((result) => Array.from(result.id).length <= LONGEST_KEPT_ID) }),
});

const removedResultRenamed = defineFault({
  name: 'removed-result-renamed',
  breaks: ['final.results-match-changes'],
  // The bundled postgres and splunk-index change sets remove a change: the scenarios find it.
  needs: { modes: ['sync'] },
  summary: 'The result of a removed change comes back with "-removed" appended to its id.',
  // Results come in the order of the changes, so the change behind each result is the one at its index.
  finalAnswer: (answer, call) => ({
    ...answer,
    results: answer.results.map((result, index) => (call.changeSet.changes[index]?.action === 'removed' ? { ...result, id: `${result.id}-removed` } : result)),
  }),
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [inProgressOnPost, missingResult, badResultOutcome, inconsistentOutcome, longIdResultLost, removedResultRenamed] as const;
