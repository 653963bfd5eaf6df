import type { FollowResult } from './case-driver.js';
import { answerText, shortList } from './answer-text.js';

/** What a follow did, for the case's lines: `3 read(s) → 200 in_progress ×2, 200 succeeded, final answer`. */
export function followSummary({ conclusion, polls, endedWhileWaiting }: FollowResult): string {
  const ending = conclusion.reason === 'final' ? 'final answer' : conclusion.reason;
  if (endedWhileWaiting) return `ended already: the control plane's read while the case waited ${shortList(polls.map(answerText))}, ${ending}`;
  return `${polls.length} read(s) ${shortList(polls.map(answerText))}, ${ending}`;
}
