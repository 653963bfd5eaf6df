import { formatMs } from '../../core/duration.js';
import { plural } from '../../core/text.js';
import type { Exchange } from '../../transcript/exchange.js';
import type { OperationView } from '../../transcript/views.js';
import { isFinalAnswer, isInProgressAnswer, isTransient, operations, readsAfterFinal } from '../../transcript/views.js';
import { finalDifferences, finalState } from '../support/final-equality.js';
import { broken, evidence, held, notExercised } from '../support/judgement.js';
import { answered, firstFinalRead, noOperationRead, readSinceFinal } from '../support/operation-reads.js';
import type { Transcript } from '../../transcript/transcript.js';
import { SITUATION_SUITES } from '../../transcript/situations.js';
import type { Evidence, Judgement, Rule } from '../types.js';

/** Rules about an operation after its final answer: no relapse to in_progress, the same answer, kept for a while. */

/** Why no operation could be judged after its final answer: none was accepted or read, or none gave one. */
function noFinal(transcript: Transcript): Judgement {
  return noOperationRead(transcript) ?? notExercised('no operation gave a final answer');
}

/** Operations that gave a final answer, each with the read that delivered it first. */
function withFinal(ops: readonly OperationView[]): Array<{ op: OperationView; first: Exchange }> {
  return ops.flatMap((op) => {
    const first = firstFinalRead(op);
    return first ? [{ op, first }] : [];
  });
}

/** operation.no-in-progress-after-final: only reads sent after a final answer arrived count (happens-before). */
export const operationNoInProgressAfterFinal: Rule = {
  id: 'operation.no-in-progress-after-final',
  level: 'MUST',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read-after-final'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'No in_progress after a final answer',
  sentence:
    'Once a read of an operation has been answered with a final outcome, no read sent after that answer arrived, by any reader, answers in_progress.',
  judge(transcript) {
    const finished = withFinal(operations(transcript));
    if (finished.length === 0) return noFinal(transcript);
    const later = finished.flatMap(({ op, first }) => readsAfterFinal(op).map((read) => ({ op, first, read })));
    if (later.length === 0) return notExercised('no read was sent after a final answer arrived');
    const answeredLater = later.filter(({ read }) => !isTransient(read));
    if (answeredLater.length === 0) return notExercised('every read sent after a final answer failed transiently, so none was answered');
    const relapsed = answeredLater.filter(({ read }) => isInProgressAnswer(read));
    const opCount = new Set(answeredLater.map(({ op }) => op)).size;
    if (relapsed.length === 0) {
      return held(`${plural(answeredLater.length, 'read')} sent after the final answer of ${plural(opCount, 'operation')}, none said in_progress`);
    }
    return broken(
      `${relapsed.length} of ${plural(answeredLater.length, 'read')} sent after a final answer said in_progress`,
      relapsed.map(({ op, first, read }) => evidence(`${readSinceFinal(op, read)} said in_progress`, read, first)),
    );
  },
};

/** operation.final-stable: every later final answer equals the first; after it only that answer or 404 may come. */
export const operationFinalStable: Rule = {
  id: 'operation.final-stable',
  level: 'MUST',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read-after-final'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'A final answer does not change',
  sentence: 'After a final answer, every later read gives the same final answer (same outcome, same results) or 404 once the operation is forgotten.',
  judge(transcript) {
    const finished = withFinal(operations(transcript));
    if (finished.length === 0) return noFinal(transcript);
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
  },
};

/** operation.final-retained: the reads made right after a final answer, and a poll interval later, still get it. */
export const operationFinalRetained: Rule = {
  id: 'operation.final-retained',
  level: 'ADVICE',
  section: 'reads',
  view: 'without-restart',
  timing: false,
  situations: ['read-after-final'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Final answers are kept for a while',
  sentence:
    'A final answer can still be read, unchanged, right after it was given and about one poll interval later, so that an answer lost on the network is not turned into a 404.',
  judge(transcript) {
    const finished = withFinal(operations(transcript));
    if (finished.length === 0) return noFinal(transcript);
    const faults: Evidence[] = [];
    let kept = 0;
    let transient = 0;
    let otherAnswers = 0;
    let after = 0;
    for (const { op, first } of finished) {
      const reference = finalState(first);
      const arrived = first.endedAt; // the final answer received first
      // Every read sent once it had arrived, by any reader (happens-before); the late reads come long after,
      // when a provisioner may fairly have forgotten.
      for (const read of readsAfterFinal(op).filter((r) => r.suite !== SITUATION_SUITES.lateReads)) {
        after += 1;
        const status = read.response?.status;
        if (isTransient(read)) transient += 1;
        else if (status === 200) {
          // in_progress and a changed answer: the operation was kept, and answered wrongly, which other rules judge.
          if (isFinalAnswer(read) && finalDifferences(reference, finalState(read)).length === 0) kept += 1;
          else otherAnswers += 1;
        } else {
          const gap = formatMs(read.sentAt - arrived);
          const what = status === 404 ? `forgotten ${gap} after the final answer` : `${answered(read)} ${gap} after the final answer instead of giving it again`;
          faults.push(evidence(`${what}: a final answer lost on the network would turn into a failure`, read, first));
        }
      }
    }
    if (after === 0) return notExercised('no read was sent after a final answer arrived');
    if (kept + faults.length === 0) {
      const parts = [
        ...(transient > 0 ? [`${transient} failed transiently`] : []),
        ...(otherAnswers > 0 ? [`${otherAnswers} answered 200 with another answer (operation.no-in-progress-after-final and operation.final-stable judge those)`] : []),
      ];
      return notExercised(`of ${plural(after, 'read')} sent after a final answer arrived, ${parts.join(' and ')}: none showed whether the answer was kept`);
    }
    if (faults.length === 0) return held(`${plural(kept, 'read')} after a final answer got the same final answer again`);
    return broken(`${faults.length} of ${plural(kept + faults.length, 'read')} after a final answer found the operation forgotten`, faults);
  },
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [operationNoInProgressAfterFinal, operationFinalStable, operationFinalRetained];
