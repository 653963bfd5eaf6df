import { defineFault } from '../fault.js';
import { isUuid } from '../operation-ids.js';
import { inProgressAnswer } from '../outcomes.js';
import { jsonReply, errorReply, TEXT_TYPE } from '../responses.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/operation-probes.ts`: reads of unknown and malformed ids, and of forgotten operations. */

const unknown200 = defineFault({
  name: 'unknown-200',
  breaks: ['operation.unknown-404'],
  needs: { modes: ['mixed'] },
  summary: 'A read of an unknown UUID answers 200 in_progress instead of 404.',
  notFound: (reply, about) => (about.operationId !== undefined && isUuid(about.operationId) ? jsonReply(200, inProgressAnswer('Queued.')) : reply),
});

const unknown500 = defineFault({
  name: 'unknown-500',
  breaks: ['operation.unknown-404'],
  needs: { modes: ['mixed'] },
  summary: 'A read of a UUID it never issued answers 500 instead of 404, every time.',
  // Ids it issued are still known and answered as usual, so only reads of unknown ids meet the 500.
  notFound: (reply, about) => (about.operationId !== undefined && isUuid(about.operationId) ? errorReply(500, 'could not look up the operation') : reply),
});

const plain404 = defineFault({
  name: 'plain-404',
  breaks: ['operation.404-identifiable'],
  needs: { modes: ['mixed'] },
  summary: 'Every 404 is a text/plain "Not Found".',
  notFound: () => ({ status: 404, contentType: TEXT_TYPE, body: 'Not Found' }),
});

const malformedId500 = defineFault({
  name: 'malformed-id-500',
  breaks: ['operation.malformed-id'],
  needs: { modes: ['mixed'] },
  summary: 'A read whose id is not a UUID answers 500.',
  // The reference never issues an id that is not a UUID, so every such read ends up here.
  notFound: (reply, about) => (about.operationId !== undefined && !isUuid(about.operationId) ? errorReply(500, 'could not look up the operation') : reply),
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [unknown200, unknown500, plain404, malformedId500] as const;
