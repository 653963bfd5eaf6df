import { notDrivenYet } from './judgement.js';
import type { Rule } from './types.js';

/** The rule about durability: accepted work survives a restart of the provisioner. */

export const durabilitySurvivesRestart: Rule = {
  id: 'durability.survives-restart',
  level: 'MUST',
  section: 'load',
  title: 'Operations survive a restart',
  sentence: 'An operation accepted before the provisioner restarts is still known afterwards and reaches a final answer.',
  judge: notDrivenYet,
};
