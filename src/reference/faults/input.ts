import { nestsDeeperThan } from '../../core/json-depth.js';
import { defineFault } from '../fault.js';
import { DEEPEST_NESTING, parseFirstValue } from '../input-limits.js';
import { errorReply } from '../responses.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/input.ts`: bad input. */

const nestedJson500 = defineFault({
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

const trailingGarbageAccepted = defineFault({
  name: 'trailing-garbage-accepted',
  breaks: ['input.malformed-json'],
  needs: { modes: ['sync'], property: { name: 'property/malformed-json', seed: 1 } },
  summary: 'Like a streaming JSON decoder, a body is read up to the end of its first JSON value and the text after it is ignored.',
  parseInput: (text) => parseFirstValue(text),
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [nestedJson500, trailingGarbageAccepted] as const;
