import { defineFault } from '../fault.js';
import { timeOrderedUuid } from '../operation-ids.js';

export default defineFault({
  name: 'time-ordered-operation-id',
  breaks: ['accepted.operation-id-random'],
  needs: { modes: ['async'] },
  summary: 'Operation ids are time-ordered version 7 UUIDs.',
  operationIds: () => () => timeOrderedUuid(Date.now()),
});
