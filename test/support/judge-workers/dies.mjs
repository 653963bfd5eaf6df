// A judges' worker that throws at the first exchange it is given, uncaught: the worker thread dies.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (message) => {
  if (message.kind === 'exchange') throw new Error('the judge worker broke');
});
