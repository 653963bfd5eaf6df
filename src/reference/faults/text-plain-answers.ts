import { defineFault } from '../fault.js';
import { TEXT_TYPE } from '../responses.js';

export default defineFault({
  name: 'text-plain-answers',
  breaks: ['answer.json'],
  needs: { modes: ['mixed'] },
  summary: '200 and 202 answers to POST are labelled text/plain (the body is still JSON).',
  postAnswer: (answer) => ({ ...answer, contentType: TEXT_TYPE }),
});
