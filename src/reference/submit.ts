import { setTimeout as sleep } from 'node:timers/promises';
import type { SubmitKind } from '../transcript/exchange.js';
import type { ChangeSet } from './change-set.js';
import { checkChangeSet } from './change-set.js';
import type { ReferenceContext } from './context.js';
import type { FaultName } from './faults.js';
import { finalAnswerFor } from './final-answer.js';
import { nestsDeeperThan } from '../core/json-depth.js';
import { DEEPEST_NESTING, hasPunctuation, parseFirstValue } from './input-limits.js';
import type { ReferenceMode } from './mode.js';
import { operationTimes } from './operations.js';
import { inProgressAnswer } from './outcomes.js';
import type { Reply } from './responses.js';
import { errorReply, jsonReply, JSON_TYPE, TEXT_TYPE } from './responses.js';

/** The answer to POST /plan or POST /apply with the given body text. */
export async function answerSubmission(kind: SubmitKind, bodyText: string, context: ReferenceContext): Promise<Reply> {
  const { fault, mode, slowAnswerMs } = context.options;
  const parsed = fault === 'trailing-garbage-accepted' ? parseFirstValue(bodyText) : parseJson(bodyText);
  if (!parsed.ok) return errorReply(400, `the body is not JSON: ${parsed.error}`);
  if (fault === 'nested-json-500' && nestsDeeperThan(parsed.value, DEEPEST_NESTING)) return errorReply(500, 'internal error: maximum recursion depth exceeded');
  const checked = checkChangeSet(parsed.value);
  if (!checked.ok) return errorReply(400, `the body is not a change set: ${checked.error}`);
  if (fault === 'punctuation-environment-500' && checked.changeSet.changes.some((change) => hasPunctuation(change.environment))) {
    return errorReply(500, 'internal error: could not derive a namespace from the environment');
  }
  if (fault === 'slow-answers') await sleep(slowAnswerMs, undefined, { signal: context.closing });
  if (fault === 'status-409-on-apply' && kind === 'apply') {
    return errorReply(409, 'another apply holds the lock for this application and environment');
  }
  if (answersAtOnce(mode, kind)) return answerAtOnce(kind, checked.changeSet, fault);
  return accept(kind, bodyText, checked.changeSet, context);
}

function answersAtOnce(mode: ReferenceMode, kind: SubmitKind): boolean {
  return mode === 'sync' || (mode === 'mixed' && kind === 'plan');
}

function answerAtOnce(kind: SubmitKind, changeSet: ChangeSet, fault: FaultName | undefined): Reply {
  const body = fault === 'in-progress-on-post' ? inProgressAnswer('Working on it.') : finalAnswerFor(kind, changeSet, fault);
  return postReply(200, body, fault);
}

function accept(kind: SubmitKind, bodyText: string, changeSet: ChangeSet, context: ReferenceContext): Reply {
  const { fault, workMs, maxOperations } = context.options;
  const now = context.now();
  const id = context.nextOperationId(kind, bodyText);
  // Only an id source that repeats ids can meet an id it already holds: the caller gets that work back, not restarted.
  if (!context.store.held(id, now)) {
    // The contract lets a provisioner that holds as much work as it can run the call at once instead.
    if (context.store.running(now) >= maxOperations) return answerAtOnce(kind, changeSet, fault);
    context.store.add({
      id,
      kind,
      changeSet,
      acceptedAt: now,
      ...operationTimes(now, workMs, fault),
      final: finalAnswerFor(kind, changeSet, fault),
      history: { readsBeforeFinal: 0, finalGiven: false, readsAfterFinal: 0 },
    });
  }
  return postReply(202, acceptedBody(id, fault), fault);
}

function acceptedBody(id: string, fault: FaultName | undefined): Record<string, unknown> {
  switch (fault) {
    case 'numeric-operation-id':
      return { operationId: Number(id) };
    case 'extra-accepted-fields':
      return { operationId: id, status: 'accepted', href: `/operations/${encodeURIComponent(id)}` };
    default:
      return { operationId: id };
  }
}

/** 200 and 202 answers to POST; the only place their content type is chosen. */
function postReply(status: 200 | 202, body: unknown, fault: FaultName | undefined): Reply {
  return jsonReply(status, body, fault === 'text-plain-answers' ? TEXT_TYPE : JSON_TYPE);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    // A byte order mark is not JSON, but an editor may have put it in a change-set file.
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
