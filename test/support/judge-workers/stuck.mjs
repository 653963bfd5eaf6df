// A judges' worker that never comes back from the first exchange it is given: a judge in an endless loop.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (message) => {
  if (message.kind === 'exchange') for (;;);
});
