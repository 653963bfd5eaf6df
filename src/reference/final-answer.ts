import type { SubmitKind } from '../transcript/exchange.js';
import type { ChangeSet } from './change-set.js';
import type { FaultName } from './faults.js';
import type { OutcomeBody } from './outcomes.js';
import { failedResult, finalAnswer } from './outcomes.js';

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
    default:
      return answer;
  }
}
