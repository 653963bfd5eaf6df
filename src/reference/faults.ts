import type { ReferenceMode } from './mode.js';

/** A switch that makes the reference break exactly one rule of the catalog. */
export interface FaultDescription {
  name: string;
  /** The id of the one rule the fault breaks (two faults may break the same rule in different ways). */
  breaks: string;
  /** One line, for listings. */
  summary: string;
  /** The mode the reference must run in for the broken rule to be exercised; absent when any mode does. */
  needs?: ReferenceMode;
}

const TABLE = [
  { name: 'status-409-on-apply', breaks: 'answer.status', summary: 'POST /apply answers 409 with a JSON error.' },
  { name: 'text-plain-answers', breaks: 'answer.json', summary: '200 and 202 answers to POST are labelled text/plain (the body is still JSON).' },
  { name: 'slow-answers', breaks: 'answer.prompt', summary: 'Answers to POST are held for slowAnswerMs before they are sent.' },
  { name: 'numeric-operation-id', breaks: 'accepted.body', summary: 'A 202 body carries operationId as a number.', needs: 'async' },
  { name: 'extra-accepted-fields', breaks: 'accepted.only-operation-id', summary: 'A 202 body also carries status and href.', needs: 'async' },
  { name: 'non-uuid-operation-id', breaks: 'accepted.operation-id-uuid', summary: 'Operation ids are op-1, op-2, … instead of UUIDs.', needs: 'async' },
  { name: 'repeated-operation-id', breaks: 'accepted.operation-id-unique', summary: 'The operation id is a hash of the call, so the same change set gets the same id again.', needs: 'async' },
  { name: 'time-ordered-operation-id', breaks: 'accepted.operation-id-random', summary: 'Operation ids are time-ordered version 7 UUIDs.', needs: 'async' },
  { name: 'in-progress-on-post', breaks: 'final.body', summary: '200 answers to POST say in_progress with no results.', needs: 'sync' },
  { name: 'missing-result', breaks: 'final.results-match-changes', summary: 'Final answers leave out the result of the last change.' },
  { name: 'bad-result-outcome', breaks: 'final.result-shape', summary: 'Results say outcome "ok" instead of succeeded.' },
  { name: 'inconsistent-outcome', breaks: 'final.outcome-consistent', summary: 'Final answers say succeeded while their first result failed.' },
  { name: 'read-status-202', breaks: 'operation.status', summary: 'Reads of running operations answer 202.', needs: 'async' },
  { name: 'flaky-reads', breaks: 'operation.transient-errors', summary: 'Every second read of an operation, until it has given its final answer, answers 503 with a proxy HTML page.', needs: 'async' },
  { name: 'read-text-plain', breaks: 'operation.body', summary: '200 reads are labelled text/plain (the body is still JSON).', needs: 'async' },
  { name: 'partial-results', breaks: 'operation.in-progress-results-empty', summary: 'in_progress reads carry the results done so far.', needs: 'async' },
  { name: 'empty-progress-note', breaks: 'operation.in-progress-description', summary: 'in_progress reads have an empty description.', needs: 'async' },
  { name: 'in-progress-after-final', breaks: 'operation.no-in-progress-after-final', summary: 'After its final answer, reads of an operation alternate between in_progress and the final answer.', needs: 'async' },
  { name: 'final-changes', breaks: 'operation.final-stable', summary: 'After its final answer, reads of an operation answer failed instead.', needs: 'async' },
  { name: 'late-registration', breaks: 'operation.not-lost', summary: 'An accepted operation answers 404 until a worker picks it up, up to 500 ms after the 202.', needs: 'async' },
  { name: 'never-finishes', breaks: 'operation.within-max-duration', summary: 'Operations stay in_progress forever.', needs: 'async' },
  { name: 'unknown-200', breaks: 'operation.unknown-404', summary: 'A read of an unknown UUID answers 200 in_progress instead of 404.' },
  { name: 'forget-after-final', breaks: 'operation.final-retained', summary: 'An operation is forgotten as soon as its final answer was read once.', needs: 'async' },
  { name: 'plain-404', breaks: 'operation.404-identifiable', summary: 'Every 404 is a text/plain "Not Found".' },
  { name: 'malformed-id-500', breaks: 'operation.malformed-id', summary: 'A read whose id is not a UUID answers 500.' },
  // Faults only generated input finds: the bundled change sets have short ids, the environment "test" and no removed change.
  { name: 'long-id-result-lost', breaks: 'final.results-match-changes', summary: 'Final answers leave out the result of every change whose id is longer than 20 characters.' },
  { name: 'removed-result-renamed', breaks: 'final.results-match-changes', summary: 'The result of a removed change comes back with "-removed" appended to its id.' },
  { name: 'punctuation-environment-500', breaks: 'answer.status', summary: 'Plan and apply answer 500 when a change\'s environment holds punctuation other than "-".' },
  { name: 'nested-json-500', breaks: 'input.invalid-change-set', summary: 'A body that parses as JSON nested more than 50 levels deep gets a 500.' },
  { name: 'trailing-garbage-accepted', breaks: 'input.malformed-json', summary: 'Like a streaming JSON decoder, a body is read up to the end of its first JSON value and the text after it is ignored.' },
  // A fault only model-based runs find: the scenarios never have three reads of one operation in flight after its final answer.
  { name: 'racing-reads', breaks: 'operation.no-in-progress-after-final', summary: 'After its final answer, a read of an operation that arrives while two other reads of it are still being answered says in_progress.', needs: 'async' },
] as const satisfies readonly FaultDescription[];

export type FaultName = (typeof TABLE)[number]['name'];

export const FAULTS: readonly FaultDescription[] = TABLE;

export function isFaultName(name: string): name is FaultName {
  return TABLE.some((fault) => fault.name === name);
}
