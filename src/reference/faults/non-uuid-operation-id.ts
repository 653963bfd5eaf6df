import { defineFault } from '../fault.js';

export default defineFault({
  name: 'non-uuid-operation-id',
  breaks: ['accepted.operation-id-uuid'],
  needs: { modes: ['async'] },
  summary: 'Operation ids are op-1, op-2, … instead of UUIDs.',
  operationIds: () => {
    let next = 1;
    return () => `op-${next++}`;
  },
});
