import { now } from '../../../src/client/clock.js';
import { formatMs } from '../../../src/core/duration.js';
import { isFinalAnswer, outcomeOf } from '../../../src/transcript/views.js';
import { answerText } from './answer-text.js';
import type { CaseDriver } from './case-driver.js';
import { checkOperationReads } from './invariants.js';
import type { TrackedOperation } from './model.js';
import type { Violation } from './violation.js';

type Ending = 'final' | 'lost' | 'deadline' | 'aborted';

export interface FollowOutcome {
  /** Rules the reads broke, in the order they were seen. */
  violations: Violation[];
  /** What following did, for the case's lines. */
  summary: string;
}

/**
 * Reads an operation as the control plane does until its work has ended: a read every poll interval until a
 * final answer, a 404, or maxOperationDuration after the 202. Every read is checked by the model; rules broken on
 * the way are collected, not thrown, so that following always ends with the work.
 */
export async function followToEnd(driver: CaseDriver, op: TrackedOperation): Promise<FollowOutcome> {
  const { pollIntervalMs, maxOperationDuration } = driver.context.judgeContext;
  const deadline = op.accepted.endedAt + maxOperationDuration.ms;
  const violations: Violation[] = [];
  const answers: string[] = [];
  let ending: Ending | undefined;
  while (!ending) {
    if (driver.stopped) ending = 'aborted';
    else if (now() >= deadline) ending = 'deadline';
    else {
      const tick = now();
      const read = await driver.readOperation(op, 'poll');
      answers.push(answerText(read));
      violations.push(...checkOperationReads(op, [read]));
      if (isFinalAnswer(read)) ending = 'final';
      else if (op.lost) ending = 'lost';
      else await driver.wait(Math.min(tick + pollIntervalMs, deadline) - now()).catch(() => undefined);
    }
  }
  driver.context.client.transcript.note({
    type: 'poll-ended',
    at: now(),
    operationId: op.id,
    reason: ending,
    acceptedSeq: op.accepted.seq,
    conclusion: conclusion(ending, op, maxOperationDuration.text),
  });
  return { violations, summary: `${answers.length} read(s) ${shortList(answers)}, ${ending === 'final' ? 'final answer' : ending}` };
}

/** `→ 200 in_progress ×3, 200 succeeded`: repeated answers counted, so that a long wait stays one line. */
function shortList(answers: readonly string[]): string {
  const runs: Array<{ answer: string; count: number }> = [];
  for (const answer of answers) {
    const last = runs.at(-1);
    if (last?.answer === answer) last.count += 1;
    else runs.push({ answer, count: 1 });
  }
  return `→ ${runs.map((r) => (r.count > 1 ? `${r.answer} ×${r.count}` : r.answer)).join(', ')}`;
}

function conclusion(ending: Ending, op: TrackedOperation, limit: string): string {
  switch (ending) {
    case 'final': {
      const first = op.firstFinal!;
      return `the control plane would record ${outcomeOf(first)} after ${formatMs(first.endedAt - op.accepted.endedAt)}`;
    }
    case 'lost':
      return 'the control plane would fail this work at once: a read answered 404 before any final answer';
    case 'deadline':
      return `the control plane would fail this work: no final answer within ${limit} of the 202`;
    case 'aborted':
      return 'the kit stopped following this work when the case was stopped';
  }
}
