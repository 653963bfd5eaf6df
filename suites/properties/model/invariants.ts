import { formatMs } from '../../../src/core/duration.js';
import type { LoadedChangeSet } from '../../../src/config/change-sets.js';
import { finalDifferences, finalState } from '../../../src/rules/final-equality.js';
import type { Exchange } from '../../../src/transcript/exchange.js';
import { bodyObject, isFinalAnswer, isTransient, outcomeOf } from '../../../src/transcript/views.js';
import { answerText } from './answer-text.js';
import type { ModelState, TrackedOperation } from './model.js';
import { resultsProblems } from './results-match.js';
import type { Violation } from './violation.js';

// Each check mirrors the judge of the same rule id, so that what the model stops at is what the rules report.

/** A 200 answer to plan or apply is final: one result per change. */
export function checkSubmission(answer: Exchange, changeSet: LoadedChangeSet): Violation[] {
  if (!isFinalAnswer(answer)) return [];
  const problems = resultsProblems(bodyObject(answer)?.results, changeSet.changes);
  if (problems.length === 0) return [];
  return [
    {
      ruleId: 'final.results-match-changes',
      note: `the 200 answer to ${answer.tag} of ${changeSet.name} has ${problems.join('; ')}`,
      exchanges: [answer.seq],
    },
  ];
}

/**
 * Reads of one operation made by one command (several when they were sent together). Updates what the case
 * knows of the operation and returns the rules the reads broke. Happens-before: only reads sent after a final
 * answer was received are held to it; a 404 blames the provisioner only when the read ended before any read
 * that got a final answer was sent.
 */
export function checkOperationReads(op: TrackedOperation, reads: readonly Exchange[]): Violation[] {
  const violations: Violation[] = [];
  const finals = reads.filter(isFinalAnswer).sort((a, b) => a.endedAt - b.endedAt);
  for (const final of finals) op.firstFinalSentAt = Math.min(op.firstFinalSentAt ?? Number.POSITIVE_INFINITY, final.sentAt);
  for (const final of finals) {
    const problems = resultsProblems(bodyObject(final)?.results, op.changeSet.changes);
    if (problems.length > 0) {
      violations.push({ ruleId: 'final.results-match-changes', note: `the final answer to a read of ${op.id} has ${problems.join('; ')}`, exchanges: [final.seq] });
    }
    if (!op.firstFinal) {
      op.firstFinal = final;
      continue;
    }
    const differences = finalDifferences(finalState(op.firstFinal), finalState(final));
    if (differences.length > 0) {
      violations.push({
        ruleId: 'operation.final-stable',
        note: `a read of ${op.id} gave another final answer than the first one: ${differences.join('; ')}`,
        exchanges: [final.seq, op.firstFinal.seq],
      });
    }
  }
  for (const read of [...reads].sort((a, b) => a.sentAt - b.sentAt)) violations.push(...checkAnswer(op, read));
  return violations;
}

function checkAnswer(op: TrackedOperation, read: Exchange): Violation[] {
  if (isTransient(read)) return []; // says nothing about the work: the control plane reads again
  const status = read.response!.status;
  const first = op.firstFinal;
  const afterFinal = first !== undefined && read.sentAt >= first.endedAt;
  const since = first ? `sent ${formatMs(read.sentAt - first.endedAt)} after the first final answer arrived` : '';
  if (status === 200 && outcomeOf(read) === 'in_progress') {
    const violations: Violation[] = [];
    const results = bodyObject(read)?.results;
    if (Array.isArray(results) && results.length > 0) {
      violations.push({ ruleId: 'operation.in-progress-results-empty', note: `a read of ${op.id} said in_progress but held ${results.length} result(s)`, exchanges: [read.seq] });
    }
    if (afterFinal) {
      violations.push({ ruleId: 'operation.no-in-progress-after-final', note: `a read of ${op.id} ${since} said in_progress`, exchanges: [read.seq, first.seq] });
    }
    return violations;
  }
  if (status === 404) {
    if (op.firstFinalSentAt === undefined || read.endedAt <= op.firstFinalSentAt) {
      op.lost = true;
      const note = `a read of ${op.id} sent ${formatMs(read.sentAt - op.accepted.endedAt)} after its 202 answered 404 before any final answer`;
      return [{ ruleId: 'operation.not-lost', note, exchanges: [read.seq, op.accepted.seq] }];
    }
    op.forgotten = true; // forgetting after the final answer is allowed
    return [];
  }
  if (status === 200) return []; // a final answer (checked above) or a body that other rules judge
  if (afterFinal) {
    const note = `a read of ${op.id} ${since} answered ${answerText(read)}; after a final answer only the same answer or 404 may come`;
    return [{ ruleId: 'operation.final-stable', note, exchanges: [read.seq, first.seq] }];
  }
  return [{ ruleId: 'operation.status', note: `a read of ${op.id} before its final answer answered ${answerText(read)}, not 200`, exchanges: [read.seq] }];
}

/** A random id the provisioner never issued is unknown, and reading it does not make it known. */
export function checkUnknownRead(model: ModelState, id: string, read: Exchange): Violation[] {
  if (isTransient(read)) return [];
  if (read.response!.status === 404) {
    model.unknownIds.add(id);
    return [];
  }
  const note = model.unknownIds.has(id)
    ? `a second read of the unknown id ${id} answered ${answerText(read)} where an earlier one answered 404: reading it created it`
    : `a read of the unknown id ${id} answered ${answerText(read)} instead of 404`;
  return [{ ruleId: 'operation.unknown-404', note, exchanges: [read.seq] }];
}

/** An id that is not a UUID is rejected with 400 or 404; a 5xx or a broken connection is no rejection. */
export function checkMalformedRead(read: Exchange): Violation[] {
  const status = read.response?.status;
  if (status === 400 || status === 404) return [];
  return [
    {
      ruleId: 'operation.malformed-id',
      note: `a read of the malformed id ${JSON.stringify(read.operationId)} answered ${answerText(read)}, not 400 or 404`,
      exchanges: [read.seq],
    },
  ];
}
