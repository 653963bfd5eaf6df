import { defineFault } from '../fault.js';
import { hashedUuid } from '../operation-ids.js';

export default defineFault({
  name: 'repeated-operation-id',
  breaks: ['accepted.operation-id-unique'],
  needs: { modes: ['async'] },
  summary: 'The operation id is a hash of the call, so the same change set gets the same id again.',
  operationIds: () => (kind, bodyText) => hashedUuid(`${kind}\n${bodyText}`),
});
