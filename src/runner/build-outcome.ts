import { kitIdentity } from '../core/package.js';
import { EXIT_CODES } from '../core/verdict.js';
import type { RunOutcome } from './outcome.js';
import { summarize } from './verdict.js';

/** What a run or an observation decided; the rest of its outcome follows from it. */
export type OutcomeParts = Omit<RunOutcome, 'kit' | 'exitCode' | 'summary'>;

/**
 * The one builder of an outcome, for a run (and a transcript judged again) as for observed traffic (and a HAR
 * file): the kit that judged, the exit code its verdict gives and the counts of its rules are filled in here.
 */
export function buildOutcome(parts: OutcomeParts): RunOutcome {
  const { target, startedAt, finishedAt, verdict, rules, ...rest } = parts;
  return {
    kit: kitIdentity(),
    target,
    startedAt,
    finishedAt,
    verdict,
    exitCode: EXIT_CODES[verdict],
    summary: summarize(rules),
    rules,
    ...rest,
  };
}
