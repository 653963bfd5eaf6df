import { defineFault } from '../fault.js';
import { TEXT_TYPE } from '../responses.js';

export default defineFault({
  name: 'plain-404',
  breaks: ['operation.404-identifiable'],
  needs: { modes: ['mixed'] },
  summary: 'Every 404 is a text/plain "Not Found".',
  notFound: () => ({ status: 404, contentType: TEXT_TYPE, body: 'Not Found' }),
});
