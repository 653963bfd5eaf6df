import type { SubmitKind } from '../transcript/exchange.js';
import type { ChangeSet } from './change-set.js';
import type { FaultName } from './faults.js';
import type { OutcomeBody } from './outcomes.js';
import { failedResult, finalAnswer } from './outcomes.js';

/** Ids longer than this (in characters) lose their result under the 'long-id-result-lost' fault: a fixed-width column. */
const LONGEST_KEPT_ID = 20;

/**
 * The final answer the reference gives for a change set, whether as a 200 answer to a POST or as a
 * final read. The faults that spoil final answers are applied here, and only here, so both ways of
 * answering carry them alike.
 */
export function finalAnswerFor(kind: SubmitKind, changeSet: ChangeSet, fault: FaultName | undefined): OutcomeBody {
  const answer = finalAnswer(kind, changeSet);
  switch (fault) {
    case 'missing-result':
      return { ...answer, results: answer.results.slice(0, -1) };
    case 'bad-result-outcome':
      return { ...answer, results: answer.results.map((result) => ({ ...result, outcome: 'ok' })) };
    case 'inconsistent-outcome': {
      // The overall outcome stays succeeded while the first change failed.
      const [, ...rest] = answer.results;
      return { ...answer, results: [failedResult(kind, changeSet.changes[0]!), ...rest] };
    }
    case 'long-id-result-lost':
      return { ...answer, results: answer.results.filter((result) => Array.from(result.id).length <= LONGEST_KEPT_ID) };
    case 'removed-result-renamed':
      // Results come in the order of the changes, so the change behind each result is the one at its index.
      return {
        ...answer,
        results: answer.results.map((result, index) => (changeSet.changes[index]?.action === 'removed' ? { ...result, id: `${result.id}-removed` } : result)),
      };
    default:
      return answer;
  }
}
