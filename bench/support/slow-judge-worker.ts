/**
 * The judges' worker thread, slowed: every exchange is judged as the real worker judges it, then the thread
 * sleeps (without spinning) for a while, so that traffic outruns the judges and the queue toward them fills as
 * it does when they fall behind on a busy machine. For benchmarks only.
 */
import { parentPort } from 'node:worker_threads';
// The real worker first: its listener judges, this one's then sleeps.
import '../../src/observe/judge-worker.js';

/** What each exchange costs the slowed judges, besides judging it. */
const SLEEP_MS = 20;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

parentPort?.on('message', (message: { kind: string }) => {
  if (message.kind === 'exchange') Atomics.wait(sleeper, 0, 0, SLEEP_MS);
});
