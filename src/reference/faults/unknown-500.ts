import { defineFault } from '../fault.js';
import { isUuid } from '../operation-ids.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'unknown-500',
  breaks: ['operation.unknown-404'],
  needs: { modes: ['mixed'] },
  summary: 'A read of a UUID it never issued answers 500 instead of 404, every time.',
  // Ids it issued are still known and answered as usual, so only reads of unknown ids meet the 500.
  notFound: (reply, about) => (about.operationId !== undefined && isUuid(about.operationId) ? errorReply(500, 'could not look up the operation') : reply),
});
