import { defineFault } from '../fault.js';
import { nestsDeeperThan } from '../../core/json-depth.js';
import { DEEPEST_NESTING } from '../input-limits.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'nested-json-500',
  breaks: ['input.invalid-change-set'],
  needs: { modes: ['sync'], property: { name: 'property/invalid-change-set', seed: 1 } },
  summary: 'A body that parses as JSON nested more than 50 levels deep gets a 500.',
  // A recursive parser fails on depth before anyone looks at whether the value is a change set.
  parseInput: (text, standard) => {
    const parsed = standard(text);
    if (parsed.ok && nestsDeeperThan(parsed.value, DEEPEST_NESTING)) return errorReply(500, 'internal error: maximum recursion depth exceeded');
    return parsed;
  },
});
