import { defineFault } from '../fault.js';

export default defineFault({
  name: 'numeric-operation-id',
  breaks: ['accepted.body'],
  needs: { modes: ['async'] },
  summary: 'A 202 body carries operationId as a number.',
  operationIds: () => {
    // Kept as text inside the reference, so that reads find it; only the 202 body turns it into a number.
    let next = 12345;
    return () => String(next++);
  },
  postAnswer: (answer) => (answer.status === 202 ? { ...answer, body: { ...answer.body, operationId: Number(answer.body.operationId) } } : answer),
});
