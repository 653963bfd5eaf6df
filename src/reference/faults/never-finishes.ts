import { defineFault } from '../fault.js';

export default defineFault({
  name: 'never-finishes',
  breaks: ['operation.within-max-duration'],
  needs: { modes: ['async'], flags: ['--max-operation-duration', 'PT1S'] },
  summary: 'Operations stay in_progress forever.',
  operationTimes: (times) => ({ ...times, finishesAt: Number.POSITIVE_INFINITY }),
});
