import { defineFault } from '../fault.js';
import { isUuid } from '../operation-ids.js';
import { errorReply } from '../responses.js';

export default defineFault({
  name: 'malformed-id-500',
  breaks: ['operation.malformed-id'],
  needs: { modes: ['mixed'] },
  summary: 'A read whose id is not a UUID answers 500.',
  // The reference never issues an id that is not a UUID, so every such read ends up here.
  notFound: (reply, about) => (about.operationId !== undefined && !isUuid(about.operationId) ? errorReply(500, 'could not look up the operation') : reply),
});
