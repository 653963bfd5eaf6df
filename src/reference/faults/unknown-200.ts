import { defineFault } from '../fault.js';
import { isUuid } from '../operation-ids.js';
import { inProgressAnswer } from '../outcomes.js';
import { jsonReply } from '../responses.js';

export default defineFault({
  name: 'unknown-200',
  breaks: ['operation.unknown-404'],
  needs: { modes: ['mixed'] },
  summary: 'A read of an unknown UUID answers 200 in_progress instead of 404.',
  notFound: (reply, about) => (about.operationId !== undefined && isUuid(about.operationId) ? jsonReply(200, inProgressAnswer('Queued.')) : reply),
});
