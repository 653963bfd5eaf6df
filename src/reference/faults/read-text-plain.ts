import { defineFault } from '../fault.js';
import { TEXT_TYPE } from '../responses.js';

export default defineFault({
  name: 'read-text-plain',
  breaks: ['operation.body'],
  needs: { modes: ['async'] },
  summary: '200 reads are labelled text/plain (the body is still JSON).',
  readAnswer: (answer) => (answer.status === 200 ? { ...answer, contentType: TEXT_TYPE } : answer),
});
