import { notDrivenYet } from './judgement.js';
import type { Rule } from './types.js';

/** The rule about load: a burst of calls is answered and its work ends. */

export const capacityBurst: Rule = {
  id: 'capacity.burst',
  level: 'MUST',
  section: 'load',
  title: 'Bursts are answered',
  sentence:
    'Under a burst of concurrent plan and apply calls every call answers 200 or 202 and every accepted operation reaches a final answer: no 429, no 5xx, no reset connection.',
  judge: notDrivenYet,
};
