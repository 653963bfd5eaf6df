import { setTimeout as sleep } from 'node:timers/promises';
import type { SubmitKind } from '../transcript/exchange.js';
import { changeSetKey } from './calls.js';
import { checkChangeSet } from './change-set.js';
import type { ReferenceContext } from './context.js';
import type { ReferenceMode } from './mode.js';
import { freshHistory } from './operations.js';
import type { OperationTimes } from './operations.js';
import type { OutcomeBody } from './outcomes.js';
import { finalAnswer } from './outcomes.js';
import type { Reply } from './responses.js';
import { errorReply, jsonReply, JSON_TYPE } from './responses.js';
import type { Call, JsonParse, PostAnswer } from './seams.js';

/** The answer to POST /plan or POST /apply with the given body text. */
export async function answerSubmission(kind: SubmitKind, bodyText: string, context: ReferenceContext): Promise<Reply> {
  const { seams, options } = context;
  const parsed = seams.parseInput ? seams.parseInput(bodyText, parseJson) : parseJson(bodyText);
  if ('status' in parsed) return parsed;
  if (!parsed.ok) return errorReply(400, `the body is not JSON: ${parsed.error}`);
  const checked = checkChangeSet(parsed.value);
  if (!checked.ok) return errorReply(400, `the body is not a change set: ${checked.error}`);
  const key = changeSetKey(checked.changeSet);
  const call: Call = { kind, changeSet: checked.changeSet, earlier: context.calls.earlier(kind, key, context.now()) };
  const delayMs = seams.postDelayMs?.(options) ?? 0;
  if (delayMs > 0) await sleep(delayMs, undefined, { signal: context.closing });
  const refusal = seams.refuseCall?.(call);
  if (refusal) return refusal;
  if (answersAtOnce(options.mode, kind)) return answerAtOnce(call, key, context);
  return accept(call, key, bodyText, context);
}

function answersAtOnce(mode: ReferenceMode, kind: SubmitKind): boolean {
  return mode === 'sync' || (mode === 'mixed' && kind === 'plan');
}

/** The final answer of a call; both ways of answering take it from here, so the final-answer seam acts on both. */
function finalAnswerOf(call: Call, context: ReferenceContext): OutcomeBody {
  const answer = finalAnswer(call.kind, call.changeSet);
  return context.seams.finalAnswer?.(answer, call) ?? answer;
}

function answerAtOnce(call: Call, key: string, context: ReferenceContext): Reply {
  const body = finalAnswerOf(call, context);
  context.calls.record(call.kind, key, context.now());
  return postReply({ status: 200, body: { ...body }, contentType: JSON_TYPE }, context);
}

function accept(call: Call, key: string, bodyText: string, context: ReferenceContext): Reply {
  const { workMs, maxOperations } = context.options;
  const now = context.now();
  const id = context.nextOperationId(call.kind, bodyText);
  // Only an id source that repeats ids can meet an id it already holds: the caller gets that work back, not restarted.
  if (!context.store.held(id, now)) {
    // The contract lets a provisioner that holds as much work as it can run the call at once instead.
    if (context.store.running(now) >= maxOperations) return context.seams.whenFull?.(call) ?? answerAtOnce(call, key, context);
    const correctTimes: OperationTimes = { knownFrom: now, finishesAt: now + workMs };
    const times = context.seams.operationTimes?.(correctTimes, { at: now, workMs }) ?? correctTimes;
    // Stored (and, with a store file, written) before the 202 goes out, so that a restart cannot lose it.
    context.store.add({ id, kind: call.kind, changeSet: call.changeSet, acceptedAt: now, ...times, final: finalAnswerOf(call, context), history: freshHistory() });
    context.calls.record(call.kind, key, times.finishesAt);
  }
  return postReply({ status: 202, body: { operationId: id }, contentType: JSON_TYPE }, context);
}

/** 200 and 202 answers to POST all pass the post-reply seam here. */
function postReply(answer: PostAnswer, context: ReferenceContext): Reply {
  const { status, body, contentType } = context.seams.postAnswer?.(answer) ?? answer;
  return jsonReply(status, body, contentType);
}

function parseJson(text: string): JsonParse {
  try {
    // A byte order mark is not JSON, but an editor may have put it in a change-set file.
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
