import type { ReferenceContext } from './context.js';
import { isFinished } from './operations.js';
import { inProgressAnswer, progressNote } from './outcomes.js';
import type { Reply } from './responses.js';
import { jsonReply, JSON_TYPE } from './responses.js';
import { notFoundReply } from './not-found.js';
import type { ReadAnswer, ReadFacts } from './seams.js';

// Work that has run its time but is still reported as running sits on its last step.
const ALMOST_DONE = 0.999;
const MAX_ID_IN_MESSAGE = 100;

/** The answer to GET /operations/{id}, given the id segment as it appeared in the path. */
export async function answerRead(rawId: string, context: ReferenceContext): Promise<Reply> {
  const { seams, options } = context;
  const id = decodeSegment(rawId);
  const now = context.now();
  const operation = context.store.known(id, now);
  if (!operation) return notFoundReply(`no operation ${quote(id)}`, seams, { operationId: id });
  const { history } = operation;
  const phase: ReadFacts['phase'] = history.finalGiven ? 'after-final' : isFinished(operation, now) ? 'final' : 'running';
  if (history.finalGiven) history.readsAfterFinal++;
  else history.readsBeforeFinal++;
  const fraction = options.workMs > 0 ? Math.min(ALMOST_DONE, Math.max(0, now - operation.acceptedAt) / options.workMs) : ALMOST_DONE;
  const body = phase === 'running' ? inProgressAnswer(progressNote(operation.kind, operation.changeSet, fraction)) : operation.final;
  const correct: ReadAnswer = { status: 200, body, contentType: JSON_TYPE };
  const answer = seams.readAnswer ? await seams.readAnswer(correct, { phase, operation, fraction, now }) : correct;
  if (phase === 'final' && typeof answer.body !== 'string' && answer.body.outcome !== 'in_progress') {
    history.finalGiven = true;
    history.finalGivenAt = now;
    if (seams.forgetsOnFinalRead) context.store.forget(operation.id);
  }
  const { status, contentType, headers } = answer;
  const reply = typeof answer.body === 'string' ? { status, contentType, body: answer.body } : jsonReply(status, answer.body, contentType);
  return headers ? { ...reply, headers } : reply;
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
