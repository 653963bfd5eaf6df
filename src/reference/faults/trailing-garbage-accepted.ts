import { defineFault } from '../fault.js';
import { parseFirstValue } from '../input-limits.js';

export default defineFault({
  name: 'trailing-garbage-accepted',
  breaks: ['input.malformed-json'],
  needs: { modes: ['sync'], property: { name: 'property/malformed-json', seed: 1 } },
  summary: 'Like a streaming JSON decoder, a body is read up to the end of its first JSON value and the text after it is ignored.',
  parseInput: (text) => parseFirstValue(text),
});
