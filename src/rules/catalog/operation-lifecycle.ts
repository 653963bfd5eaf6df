import type { DurationSetting } from '../../core/judge-context.js';
import { formatMs } from '../../core/duration.js';
import { maxOperationDurationInWords } from '../../core/property-time-limit.js';
import { plural } from '../../core/text.js';
import type { OperationView } from '../../transcript/views.js';
import { operations, pollEnds, readsSurelyBeforeFinal } from '../../transcript/views.js';
import { neverAnswered } from '../support/answered-by.js';
import { noAnswerThatWay } from '../support/answer-ways.js';
import { broken, evidence, held, notExercised } from '../support/judgement.js';
import { noOperationRead, printableId, readSinceAccepted } from '../support/operation-reads.js';
import { deadlineFinding } from '../support/deadline-evidence.js';
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

/** The duration in use and where it came from, for messages; the rule says why it uses the default. */
function durationInUse(setting: DurationSetting): string {
  return setting.source === 'default' ? `${setting.text}, used because no maxOperationDuration was given` : maxOperationDurationInWords(setting);
}

/**
 * operation.within-max-duration: broken only on proof that the work outlasted the deadline (a read after it answered
 * in_progress, or reads at the poll interval up to it without a final answer); see deadline-evidence.ts.
 */
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
    // A following of the id that ended at the deadline says the deadline came, whatever another following of it did.
    const deadlineEnds = pollEnds(transcript).filter((e) => e.reason === 'deadline');
    const faults: Evidence[] = [];
    const tookMs: number[] = [];
    const unknown: string[] = [];
    let judged = 0;
    for (const op of ops) {
      // Only what the reads prove counts: a final answer to a late read after a gap the reader left proves nothing.
      const finding = deadlineFinding(op, deadlineEnds.find((e) => e.operationId === op.operationId), limit, context.pollIntervalMs);
      if (finding.kind === 'within') tookMs.push(finding.tookMs);
      else if (finding.kind === 'late') faults.push(evidence(finding.note, ...finding.exchanges));
      else if (finding.kind === 'unknown') unknown.push(`operation ${printableId(op.operationId)}: ${finding.note}`);
      if (finding.kind === 'within' || finding.kind === 'late') judged += 1;
    }
    const unjudged = unknown.length === 0 ? '' : `${plural(unknown.length, 'operation')} not judged, as the reads left a gap around the deadline (${unknown[0]}${unknown.length > 1 ? '; and others like it' : ''})`;
    if (judged === 0) {
      if (unknown.length > 0) return notExercised(`${unjudged}; none was judged against ${durationInUse(limit)}`);
      return notExercised(`no operation reached a final answer or the deadline, so none was judged against ${durationInUse(limit)}`);
    }
    if (faults.length === 0) {
      const slowest = `; the slowest took ${formatMs(Math.max(...tookMs))}`;
      return held(`${plural(judged, 'operation')} gave a final answer within ${durationInUse(limit)}${slowest}${unjudged === '' ? '' : `; ${unjudged}`}`);
    }
    return broken(`${faults.length} of ${plural(judged, 'operation')} gave no final answer within ${durationInUse(limit)}`, faults);
  },
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [operationNotLost, operationWithinMaxDuration];
