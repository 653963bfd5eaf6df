import type { Level, RuleSection } from './types.js';

export interface RuleEntry {
  id: string;
  level: Level;
  section: RuleSection;
  title: string;
  sentence: string;
}

/** The contract as rules with stable ids. Sentences are the kit's own wording of the contract. */
export const CATALOG: readonly RuleEntry[] = [
  // Answers to POST /plan and POST /apply
  {
    id: 'answer.status', level: 'MUST', section: 'answers', title: 'Plan and apply answer 200 or 202',
    sentence: 'A plan or apply call with a valid change set is answered with status 200 or 202; any other status, or no answer at all, fails.',
  },
  {
    id: 'answer.json', level: 'MUST', section: 'answers', title: 'Answers are JSON objects',
    sentence: 'A 200 or 202 answer carries a JSON content type (application/json or a +json type) and a body that is a JSON object.',
  },
  {
    id: 'answer.prompt', level: 'SHOULD', section: 'answers', title: 'Answers come at once',
    sentence: 'Plan and apply are answered within the answer timeout; work that takes longer is accepted with 202 instead of holding the call open.',
  },
  {
    id: 'accepted.body', level: 'MUST', section: 'answers', title: '202 carries an operationId',
    sentence: 'The body of a 202 answer has an operationId field whose value is a string.',
  },
  {
    id: 'accepted.only-operation-id', level: 'SHOULD', section: 'answers', title: '202 carries nothing but the operationId',
    sentence: 'The body of a 202 answer has no field besides operationId.',
  },
  {
    id: 'accepted.operation-id-uuid', level: 'MUST', section: 'answers', title: 'operationId is a UUID',
    sentence: 'An operationId is a UUID written canonically (8-4-4-4-12 hexadecimal digits with the RFC 9562 variant), and neither the nil nor the max UUID.',
  },
  {
    id: 'accepted.operation-id-unique', level: 'MUST', section: 'answers', title: 'operationIds are never reused',
    sentence: 'Two 202 answers in one run never carry the same operationId, not even when the same change set is sent twice.',
  },
  {
    id: 'accepted.operation-id-random', level: 'SHOULD', section: 'answers', title: 'operationIds are random',
    sentence: 'An operationId is drawn from a random source (a version 4 UUID); name-based, time-based or patterned ids are warned about.',
  },
  // Final answers
  {
    id: 'final.body', level: 'MUST', section: 'final', title: 'A 200 answer is a final answer',
    sentence: 'A 200 answer to plan or apply has outcome succeeded or failed (never in_progress), a string description and a results array.',
  },
  {
    id: 'final.results-match-changes', level: 'MUST', section: 'final', title: 'One result per change',
    sentence: 'A final answer holds exactly one result for each change of the change set, matched by id and environment: none missing, none extra, none twice, failed answers included.',
  },
  {
    id: 'final.result-shape', level: 'MUST', section: 'final', title: 'Results have the contract shape',
    sentence: 'Each result has a string id, a string environment, an outcome of succeeded or failed, a string description, and outputs that are an object when present.',
  },
  {
    id: 'final.outcome-consistent', level: 'SHOULD', section: 'final', title: 'Overall outcome agrees with the results',
    sentence: 'A final answer that says succeeded holds no failed result; one with a failed result says failed.',
  },
  // Reads of GET /operations/{id}
  {
    id: 'operation.status', level: 'MUST', section: 'reads', title: 'Reads of running work answer 200',
    sentence: 'A read of an operation that has not given its final answer yet answers 200 (a 5xx is tolerated as transient); any other status fails.',
  },
  {
    id: 'operation.transient-errors', level: 'SHOULD', section: 'reads', title: 'Reads answer without transient errors',
    sentence: 'Reads answer without 5xx statuses, timeouts or refused connections; the control plane reads again after those, so each is counted as a warning.',
  },
  {
    id: 'operation.body', level: 'MUST', section: 'reads', title: 'Reads have the outcome shape',
    sentence: 'A 200 read carries a JSON content type and a JSON object with outcome in_progress, succeeded or failed, a string description and a results array.',
  },
  {
    id: 'operation.in-progress-results-empty', level: 'MUST', section: 'reads', title: 'No results while in progress',
    sentence: 'While an operation answers in_progress, its results array is empty.',
  },
  {
    id: 'operation.in-progress-description', level: 'SHOULD', section: 'reads', title: 'In-progress answers carry a progress note',
    sentence: 'An in_progress answer has a progress note in description that is not empty and at most 500 characters long.',
  },
  {
    id: 'operation.no-in-progress-after-final', level: 'MUST', section: 'reads', title: 'No in_progress after a final answer',
    sentence: 'Once a read of an operation has been answered with a final outcome, no read sent after that answer arrived, by any reader, answers in_progress.',
  },
  {
    id: 'operation.final-stable', level: 'MUST', section: 'reads', title: 'A final answer does not change',
    sentence: 'After a final answer, every later read gives the same final answer (same outcome, same results) or 404 once the operation is forgotten.',
  },
  {
    id: 'operation.not-lost', level: 'MUST', section: 'reads', title: 'Accepted work is never lost',
    sentence: 'An operationId from a 202 answer is known until its final answer: no read before then answers 404, including the read made right after the 202.',
  },
  {
    id: 'operation.within-max-duration', level: 'MUST', section: 'reads', title: 'Work ends within maxOperationDuration',
    sentence: 'An operation gives its final answer before maxOperationDuration has passed since its 202 answer (PT30M when no duration is given).',
  },
  {
    id: 'operation.unknown-404', level: 'MUST', section: 'reads', title: 'Unknown ids answer 404',
    sentence: 'A read of a random UUID the provisioner never issued answers 404, and reading it does not create it: a second read answers 404 too.',
  },
  {
    id: 'operation.final-retained', level: 'ADVICE', section: 'reads', title: 'Final answers are kept for a while',
    sentence: 'A final answer can still be read, unchanged, right after it was given and about one poll interval later, so that an answer lost on the network is not turned into a 404.',
  },
  {
    id: 'operation.404-identifiable', level: 'ADVICE', section: 'reads', title: '404 answers are recognisable',
    sentence: 'A 404 from the provisioner has a JSON content type and a JSON body, so that it cannot be taken for a 404 from a router or proxy in front of it.',
  },
  {
    id: 'operation.malformed-id', level: 'SHOULD', section: 'reads', title: 'Malformed ids are rejected cleanly',
    sentence: 'A read whose id is not a UUID answers 400 or 404, never 200 and never a 5xx.',
  },
  // Registration
  {
    id: 'registration.body', level: 'MUST', section: 'registration', title: 'The registration document is complete',
    sentence: 'The registration has a non-empty string name, an absolute http or https url, and a non-empty types array of {kind, type} strings.',
  },
  {
    id: 'registration.max-operation-duration', level: 'MUST', section: 'registration', title: 'maxOperationDuration is registered and valid',
    sentence: 'maxOperationDuration, when present, is an ISO 8601 duration above zero and at most PT30M; a provisioner that answered 202 must register it.',
  },
  // Repeats
  {
    id: 'apply.idempotent', level: 'MUST', section: 'repeats', title: 'Apply is idempotent',
    sentence: 'Applying the same change set again after the first apply ended gives the same end state: the same outcome and outputs for each change.',
  },
  {
    id: 'apply.repeat-while-running', level: 'SHOULD', section: 'repeats', title: 'A repeated apply while running converges',
    sentence: 'The same apply sent again while the first operation is still in progress ends in the same end state for both.',
  },
  {
    id: 'plan.repeatable', level: 'SHOULD', section: 'repeats', title: 'Plan is repeatable',
    sentence: 'Two plans of the same change set give the same outcome for each change.',
  },
  // Load and durability
  {
    id: 'capacity.burst', level: 'MUST', section: 'load', title: 'Bursts are answered',
    sentence: 'Under a burst of concurrent plan and apply calls every call answers 200 or 202 and every accepted operation reaches a final answer: no 429, no 5xx, no reset connection.',
  },
  {
    id: 'durability.survives-restart', level: 'MUST', section: 'load', title: 'Operations survive a restart',
    sentence: 'An operation accepted before the provisioner restarts is still known afterwards and reaches a final answer.',
  },
  // Bad input
  {
    id: 'input.malformed-json', level: 'SHOULD', section: 'bad-input', title: 'Malformed JSON is a client error',
    sentence: 'A plan or apply call whose body is not JSON answers 4xx, never 2xx and never 5xx.',
  },
  {
    id: 'input.invalid-change-set', level: 'SHOULD', section: 'bad-input', title: 'Invalid change sets are refused cleanly',
    sentence: 'A plan or apply call whose JSON body is not a change set answers 4xx or a failed final answer: never 5xx, never a hang, never a 202 that leads nowhere.',
  },
];

export const RULE_IDS: readonly string[] = CATALOG.map((rule) => rule.id);

export function catalogEntry(id: string): RuleEntry {
  const entry = CATALOG.find((rule) => rule.id === id);
  if (!entry) throw new Error(`unknown rule id ${id}`);
  return entry;
}
