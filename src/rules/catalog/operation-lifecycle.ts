import type { DurationSetting } from '../../core/judge-context.js';
import { formatMs } from '../../core/duration.js';
import { plural } from '../../core/text.js';
import type { OperationView } from '../../transcript/views.js';
import { operations, pollEnds, readsSurelyBeforeFinal } from '../../transcript/views.js';
import { neverAnswered } from '../support/answered-by.js';
import { noAnswerThatWay } from '../support/answer-ways.js';
import { broken, evidence, held, notExercised } from '../support/judgement.js';
import { noOperationRead, readSinceAccepted } from '../support/operation-reads.js';
import type { Evidence, Rule } from '../types.js';

/** Rules about an operation's life before its final answer: never lost, done within maxOperationDuration. */

/** operation.not-lost: a 404 that surely reached the provisioner before any final answer loses the work. */
export const operationNotLost: Rule = {
  id: 'operation.not-lost',
  level: 'MUST',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Accepted work is never lost',
  sentence:
    'An operationId from a 202 answer is known until its final answer: no read before then answers 404, including the read made right after the 202.',
  judge(transcript) {
    const none = noOperationRead(transcript);
    if (none) return none;
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
  },
};

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
export const operationWithinMaxDuration: Rule = {
  id: 'operation.within-max-duration',
  level: 'MUST',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  shownByWaitingOutDeadline: true,
  title: 'Work ends within maxOperationDuration',
  sentence: 'An operation gives its final answer before maxOperationDuration has passed since its 202 answer (PT30M when no duration is given).',
  judge(transcript, context) {
    const ops = operations(transcript);
    if (ops.length === 0) {
      const never = `${neverAnswered(transcript, 202, 'the provisioner never answered 202 with an operationId')}, so no operation was timed`;
      return noAnswerThatWay(transcript, 202, 'no operation to time', never);
    }
    const limit = context.maxOperationDuration;
    const faults: Evidence[] = [];
    const tookMs: number[] = [];
    let judged = 0;
    for (const op of ops) {
      // Reads are sorted by when they were sent: the first final read is the one sent first.
      const first = op.finalReads[0];
      if (first) {
        judged += 1;
        const took = first.sentAt - op.acceptedAt;
        tookMs.push(took);
        if (took > limit.ms) {
          faults.push(evidence(`the first final answer came to a read sent ${formatMs(took)} after the 202, more than ${limit.text}`, first, op.accepted));
        }
        continue;
      }
      // Without a final answer only the poller's deadline judges the operation; lost and aborted ones are not judged.
      const deadline = pollEnds(transcript).find((e) => e.operationId === op.operationId && e.reason === 'deadline');
      if (!deadline) continue;
      judged += 1;
      const last = op.reads[op.reads.length - 1];
      const note = `no final answer within ${limit.text} of the 202: polling stopped at the deadline, ${formatMs(deadline.at - op.acceptedAt)} after the 202`;
      faults.push(last ? evidence(note, last, op.accepted) : evidence(note, op.accepted));
    }
    if (judged === 0) {
      return notExercised(`no operation reached a final answer or the deadline, so none was judged against ${durationInUse(limit)}`);
    }
    if (faults.length === 0) {
      return held(`${plural(judged, 'operation')} gave a final answer within ${durationInUse(limit)}; the slowest took ${formatMs(Math.max(...tookMs))}`);
    }
    return broken(`${faults.length} of ${plural(judged, 'operation')} gave no final answer within ${durationInUse(limit)}`, faults);
  },
};
