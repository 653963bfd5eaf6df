import type { ReferenceContext } from './context.js';
import type { FaultName } from './faults.js';
import { isUuid } from './operation-ids.js';
import type { Operation } from './operations.js';
import { isFinished } from './operations.js';
import type { ChangeResult, OutcomeBody } from './outcomes.js';
import { failedAnswer, inProgressAnswer, progressNote } from './outcomes.js';
import type { Reply } from './responses.js';
import { errorReply, jsonReply, JSON_TYPE, notFoundReply, proxyUnavailableReply, TEXT_TYPE } from './responses.js';

// Work that has run its time but is still reported as running sits on its last step.
const ALMOST_DONE = 0.999;
const MAX_ID_IN_MESSAGE = 100;

/** The answer to GET /operations/{id}, given the id segment as it appeared in the path. */
export function answerRead(rawId: string, context: ReferenceContext): Reply {
  const { fault } = context.options;
  const id = decodeSegment(rawId);
  if (fault === 'malformed-id-500' && !isUuid(id)) return errorReply(500, 'could not look up the operation');
  const now = context.now();
  const operation = context.store.known(id, now);
  if (!operation) return answerUnknown(id, fault);
  return answerKnown(operation, now, context);
}

function answerUnknown(id: string, fault: FaultName | undefined): Reply {
  if (fault === 'unknown-200' && isUuid(id)) return readReply(200, inProgressAnswer('Queued.'), fault);
  return notFoundReply(`no operation ${quote(id)}`, fault);
}

function answerKnown(operation: Operation, now: number, context: ReferenceContext): Reply {
  const { fault } = context.options;
  const history = operation.history;
  if (!history.finalGiven) {
    history.readsBeforeFinal++;
    // Reads after the final answer are spared, so that the rules about final answers stay untouched.
    if (fault === 'flaky-reads' && history.readsBeforeFinal % 2 === 0) return proxyUnavailableReply();
    if (!isFinished(operation, now)) return runningReply(operation, now, context);
    history.finalGiven = true;
    if (fault === 'forget-after-final') context.store.forget(operation.id);
    return readReply(200, operation.final, fault);
  }
  history.readsAfterFinal++;
  // The first read after the final answer already relapses, so a single look after the final catches it.
  if (fault === 'in-progress-after-final' && history.readsAfterFinal % 2 === 1) {
    return readReply(200, inProgressAnswer(progressNote(operation.kind, operation.changeSet, ALMOST_DONE)), fault);
  }
  if (fault === 'final-changes') return readReply(200, failedAnswer(operation.kind, operation.changeSet), fault);
  return readReply(200, operation.final, fault);
}

function runningReply(operation: Operation, now: number, context: ReferenceContext): Reply {
  const { fault, workMs } = context.options;
  const fraction = workMs > 0 ? Math.min(ALMOST_DONE, (now - operation.acceptedAt) / workMs) : ALMOST_DONE;
  const description = fault === 'empty-progress-note' ? '' : progressNote(operation.kind, operation.changeSet, fraction);
  const results = fault === 'partial-results' ? doneSoFar(operation.final.results, fraction) : [];
  const status = fault === 'read-status-202' ? 202 : 200;
  return readReply(status, inProgressAnswer(description, results), fault);
}

/** The results of the changes finished by now; at least one, so that even the first read shows some. */
function doneSoFar(results: ChangeResult[], fraction: number): ChangeResult[] {
  return results.slice(0, Math.max(1, Math.floor(fraction * results.length)));
}

/** Answers to reads that carry an outcome; the only place their content type is chosen. */
function readReply(status: number, body: OutcomeBody, fault: FaultName | undefined): Reply {
  return jsonReply(status, body, fault === 'read-text-plain' && status === 200 ? TEXT_TYPE : JSON_TYPE);
}

export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // bad percent-encoding: not an id the reference could have issued
  }
}

function quote(id: string): string {
  const chars = Array.from(id);
  return JSON.stringify(chars.length <= MAX_ID_IN_MESSAGE ? id : `${chars.slice(0, MAX_ID_IN_MESSAGE).join('')}…`);
}
