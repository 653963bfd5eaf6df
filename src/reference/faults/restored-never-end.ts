import { defineFault } from '../fault.js';

export default defineFault({
  name: 'restored-never-end',
  breaks: ['durability.survives-restart'],
  needs: { modes: ['async'], restart: true, flags: ['--max-operation-duration', 'PT5S'] },
  summary: 'Operations whose work was in progress at a restart are known afterwards but stay in_progress forever.',
  restore: (stored, now) => stored.map((operation) => (operation.finishesAt > now ? { ...operation, finishesAt: Number.POSITIVE_INFINITY } : operation)),
});
