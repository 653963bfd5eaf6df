import { defineFault } from '../fault.js';

export default defineFault({
  name: 'forget-after-final',
  breaks: ['operation.final-retained'],
  needs: { modes: ['async'] },
  summary: 'An operation is forgotten as soon as its final answer was read once.',
  forgetsOnFinalRead: true,
});
