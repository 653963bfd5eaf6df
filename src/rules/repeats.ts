import { notDrivenYet } from './judgement.js';
import type { Rule } from './types.js';

/** Rules about repeated calls: apply again after it ended, apply again while it runs, plan twice. */

export const applyIdempotent: Rule = {
  id: 'apply.idempotent',
  level: 'MUST',
  section: 'repeats',
  title: 'Apply is idempotent',
  sentence: 'Applying the same change set again after the first apply ended gives the same end state: the same outcome and outputs for each change.',
  judge: notDrivenYet,
};

export const applyRepeatWhileRunning: Rule = {
  id: 'apply.repeat-while-running',
  level: 'SHOULD',
  section: 'repeats',
  title: 'A repeated apply while running converges',
  sentence: 'The same apply sent again while the first operation is still in progress ends in the same end state for both.',
  judge: notDrivenYet,
};

export const planRepeatable: Rule = {
  id: 'plan.repeatable',
  level: 'SHOULD',
  section: 'repeats',
  title: 'Plan is repeatable',
  sentence: 'Two plans of the same change set give the same outcome for each change.',
  judge: notDrivenYet,
};
