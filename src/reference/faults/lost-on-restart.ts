import { defineFault } from '../fault.js';

export default defineFault({
  name: 'lost-on-restart',
  breaks: ['durability.survives-restart'],
  needs: { modes: ['async'], restart: true },
  summary: 'Operations are never read back from the store: after a restart every operation accepted before it answers 404.',
  restore: () => [],
});
