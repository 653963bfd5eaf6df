import { defineFault } from '../fault.js';

export default defineFault({
  name: 'extra-accepted-fields',
  breaks: ['accepted.only-operation-id'],
  needs: { modes: ['async'] },
  summary: 'A 202 body also carries status and href.',
  postAnswer: (answer) => {
    if (answer.status !== 202) return answer;
    const id = String(answer.body.operationId);
    return { ...answer, body: { operationId: id, status: 'accepted', href: `/operations/${encodeURIComponent(id)}` } };
  },
});
