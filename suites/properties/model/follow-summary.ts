import type { FollowResult } from './case-driver.js';
import { answerText } from './answer-text.js';

/** What a follow did, for the case's lines: `3 read(s) → 200 in_progress ×2, 200 succeeded, final answer`. */
export function followSummary({ conclusion, polls, endedWhileWaiting }: FollowResult): string {
  const ending = conclusion.reason === 'final' ? 'final answer' : conclusion.reason;
  if (endedWhileWaiting) return `ended already: the control plane's read while the case waited ${shortList(polls.map(answerText))}, ${ending}`;
  return `${polls.length} read(s) ${shortList(polls.map(answerText))}, ${ending}`;
}

/** `→ 200 in_progress ×3, 200 succeeded`: repeated answers counted, so that a long wait stays one line. */
export function shortList(answers: readonly string[]): string {
  const runs: Array<{ answer: string; count: number }> = [];
  for (const answer of answers) {
    const last = runs.at(-1);
    if (last?.answer === answer) last.count += 1;
    else runs.push({ answer, count: 1 });
  }
  return `→ ${runs.map((r) => (r.count > 1 ? `${r.answer} ×${r.count}` : r.answer)).join(', ')}`;
}
