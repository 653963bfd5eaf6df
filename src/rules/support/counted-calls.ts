import type { RuleView } from '../types.js';

// What a view of the transcript may leave out of the plan and apply calls a rule counts.
type Part = 'restart' | 'burst' | 'repeats' | 'overload';

const WORDS: Record<Part, string> = {
  restart: 'calls around the restart',
  burst: "the burst's calls",
  repeats: 'repeats',
  overload: 'calls refused under load',
};

const LEFT_OUT: Record<RuleView, readonly Part[]> = {
  whole: [],
  'without-restart': ['restart'],
  'without-burst-calls': ['burst', 'restart'],
  'without-burst-overload': ['overload', 'restart'],
  'without-burst-repeats-or-overload': ['burst', 'repeats', 'overload', 'restart'],
};

function list(words: readonly string[], last: string): string {
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)!}`;
}

/**
 * Which plan and apply calls a rule judging `view` counts, in words: `the burst's calls and repeats counted;
 * not calls around the restart`. Rules about answers judge different views, so their counts differ; each count
 * says why.
 */
export function countedCalls(view: RuleView): string {
  const out = LEFT_OUT[view];
  const counted = (['burst', 'repeats'] as const).filter((part) => !out.includes(part)).map((part) => WORDS[part]);
  const notCounted = out.map((part) => WORDS[part]);
  return [...(counted.length > 0 ? [`${list(counted, 'and')} counted`] : []), ...(notCounted.length > 0 ? [`not ${list(notCounted, 'or')}`] : [])].join('; ');
}
