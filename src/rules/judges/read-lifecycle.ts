import { formatMs } from '../../config/duration.js';
import type { Exchange } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import type { OperationView } from '../../transcript/views.js';
import { isFinalAnswer, isTransient, operations, outcomeOf, readsAfterFinal, readsSurelyBeforeFinal } from '../../transcript/views.js';
import type { DurationSetting, Evidence, JudgeContext, Judgement } from '../types.js';
import { finalDifferences, finalState } from './final-equality.js';
import { broken, evidence, held, notExercised } from './judgement.js';
import { answered, firstFinalRead, noOperationRead, plural, readSinceAccepted, readSinceFinal } from './read-support.js';

const NO_FINAL = 'no operation gave a final answer';

/** Operations that gave a final answer, each with the read that delivered it first. */
function withFinal(ops: readonly OperationView[]): Array<{ op: OperationView; first: Exchange }> {
  return ops.flatMap((op) => {
    const first = firstFinalRead(op);
    return first ? [{ op, first }] : [];
  });
}

/** operation.no-in-progress-after-final: only reads sent after a final answer arrived count (happens-before). */
export function operationNoInProgressAfterFinal(transcript: Transcript, _context: JudgeContext): Judgement {
  const finished = withFinal(operations(transcript));
  if (finished.length === 0) return notExercised(NO_FINAL);
  const later = finished.flatMap(({ op, first }) => readsAfterFinal(op).map((read) => ({ op, first, read })));
  if (later.length === 0) return notExercised('no read was sent after a final answer arrived');
  const answeredLater = later.filter(({ read }) => !isTransient(read));
  if (answeredLater.length === 0) return notExercised('every read sent after a final answer failed transiently, so none was answered');
  const relapsed = answeredLater.filter(({ read }) => read.response?.status === 200 && outcomeOf(read) === 'in_progress');
  const opCount = new Set(answeredLater.map(({ op }) => op)).size;
  if (relapsed.length === 0) {
    return held(`${plural(answeredLater.length, 'read')} sent after the final answer of ${plural(opCount, 'operation')}, none said in_progress`);
  }
  return broken(
    `${relapsed.length} of ${plural(answeredLater.length, 'read')} sent after a final answer said in_progress`,
    relapsed.map(({ op, first, read }) => evidence(`${readSinceFinal(op, read)} said in_progress`, read, first)),
  );
}

/** operation.final-stable: every later final answer equals the first; after it only that answer or 404 may come. */
export function operationFinalStable(transcript: Transcript, _context: JudgeContext): Judgement {
  const finished = withFinal(operations(transcript));
  if (finished.length === 0) return notExercised(NO_FINAL);
  const faults: Evidence[] = [];
  let compared = 0;
  const comparedOps = new Set<OperationView>();
  for (const { op, first } of finished) {
    const reference = finalState(first);
    for (const read of op.finalReads) {
      if (read === first) continue;
      compared += 1;
      comparedOps.add(op);
      const differences = finalDifferences(reference, finalState(read));
      if (differences.length > 0) {
        faults.push(evidence(`${readSinceFinal(op, read)} gave another final answer: ${differences.join('; ')}`, read, first));
      }
    }
    // 200 answers that are not final belong to operation.no-in-progress-after-final and operation.body.
    for (const read of readsAfterFinal(op)) {
      const status = read.response?.status;
      if (isFinalAnswer(read) || isTransient(read) || status === 200) continue;
      compared += 1;
      comparedOps.add(op);
      if (status !== 404) {
        faults.push(evidence(`${readSinceFinal(op, read)} ${answered(read)}; after a final answer only the same answer or 404 may come`, read, first));
      }
    }
  }
  if (compared === 0) return notExercised('no read after a final answer gave an answer to compare with it');
  if (faults.length === 0) {
    return held(`${plural(compared, 'later answer')} of ${plural(comparedOps.size, 'operation')} repeated the first final answer or were 404`);
  }
  return broken(`${faults.length} of ${plural(compared, 'later answer')} did not repeat the first final answer`, faults);
}

/** operation.not-lost: a 404 that surely reached the provisioner before any final answer loses the work. */
export function operationNotLost(transcript: Transcript, _context: JudgeContext): Judgement {
  const none = noOperationRead(transcript);
  if (none) return notExercised(none);
  const ops = operations(transcript).filter((op) => op.reads.length > 0);
  const faults: Evidence[] = [];
  const lostOps = new Set<OperationView>();
  for (const op of ops) {
    // Reads that overlap the first final read may have reached the provisioner after it: never blame those.
    for (const read of readsSurelyBeforeFinal(op).filter((r) => r.response?.status === 404)) {
      lostOps.add(op);
      faults.push(
        evidence(`${readSinceAccepted(op, read)} answered 404 before any final answer: the control plane would fail this work at once`, read, op.accepted),
      );
    }
  }
  if (faults.length === 0) {
    const reads = ops.reduce((sum, op) => sum + op.reads.length, 0);
    return held(`${plural(ops.length, 'operation')} read ${plural(reads, 'time')}; none answered 404 before its final answer`);
  }
  return broken(`${plural(lostOps.size, 'operation was', 'operations were')} lost before a final answer: the control plane would fail this work at once`, faults);
}

/** The duration in use and where it came from, for messages. */
function durationInUse(setting: DurationSetting): string {
  switch (setting.source) {
    case 'registration':
      return `${setting.text} (maxOperationDuration of the registration)`;
    case 'flag':
      return `${setting.text} (given by --max-operation-duration)`;
    case 'default':
      return `${setting.text}, used because no maxOperationDuration was given`;
  }
}

/** operation.within-max-duration: the first final answer is asked for before the deadline, or the poller met the deadline. */
export function operationWithinMaxDuration(transcript: Transcript, context: JudgeContext): Judgement {
  const ops = operations(transcript);
  if (ops.length === 0) return notExercised('the provisioner never answered 202 with an operationId, so no operation was timed');
  const limit = context.maxOperationDuration;
  const faults: Evidence[] = [];
  const tookMs: number[] = [];
  for (const op of ops) {
    if (op.firstFinalSentAt !== undefined) {
      const took = op.firstFinalSentAt - op.acceptedAt;
      tookMs.push(took);
      const first = op.finalReads.find((r) => r.sentAt === op.firstFinalSentAt) ?? op.accepted;
      if (took > limit.ms) {
        faults.push(evidence(`the first final answer came to a read sent ${formatMs(took)} after the 202, more than ${limit.text}`, first, op.accepted));
      }
      continue;
    }
    // Without a final answer only the poller's deadline judges the operation; lost and aborted ones are not judged.
    const deadline = transcript.events.find((e) => e.type === 'poll-ended' && e.operationId === op.operationId && e.reason === 'deadline');
    if (!deadline) continue;
    tookMs.push(deadline.at - op.acceptedAt);
    const last = op.reads[op.reads.length - 1];
    const note = `no final answer within ${limit.text} of the 202: polling stopped at the deadline, ${formatMs(deadline.at - op.acceptedAt)} after the 202`;
    faults.push(last ? evidence(note, last, op.accepted) : evidence(note, op.accepted));
  }
  if (tookMs.length === 0) {
    return notExercised(`no operation reached a final answer or the deadline, so none was judged against ${durationInUse(limit)}`);
  }
  if (faults.length === 0) {
    return held(`${plural(tookMs.length, 'operation')} gave a final answer within ${durationInUse(limit)}; the slowest took ${formatMs(Math.max(...tookMs))}`);
  }
  return broken(`${faults.length} of ${plural(tookMs.length, 'operation')} gave no final answer within ${durationInUse(limit)}`, faults);
}

/** operation.final-retained: the reads made right after a final answer, and a poll interval later, still get it. */
export function operationFinalRetained(transcript: Transcript, _context: JudgeContext): Judgement {
  const finished = withFinal(operations(transcript));
  if (finished.length === 0) return notExercised(NO_FINAL);
  const faults: Evidence[] = [];
  let kept = 0;
  for (const { op, first } of finished) {
    const reference = finalState(first);
    const arrived = op.firstFinalReceivedAt ?? first.endedAt;
    for (const read of op.reads.filter((r) => r.tag === 'read-after-final')) {
      const status = read.response?.status;
      if (status === 404) {
        faults.push(
          evidence(
            `forgotten ${formatMs(read.sentAt - arrived)} after the final answer: a final answer lost on the network would turn into a failure`,
            read,
            first,
          ),
        );
      } else if (isFinalAnswer(read) && finalDifferences(reference, finalState(read)).length === 0) {
        kept += 1;
      }
      // Transient answers, in_progress and changed answers are other rules' business.
    }
  }
  if (kept + faults.length === 0) return notExercised('no read after a final answer got the final answer again or 404');
  if (faults.length === 0) return held(`${plural(kept, 'read')} after a final answer got the same final answer again`);
  return broken(`${faults.length} of ${plural(kept + faults.length, 'read')} after a final answer found the operation forgotten`, faults);
}
