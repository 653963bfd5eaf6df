import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

/** The built module: a worker thread cannot load the TypeScript source. */
const BUILT = new URL('../../dist/src/core/thread-priority.js', import.meta.url);

/** The nice value of one thread, from its stat line (`/proc/PID/task/TID/stat`, field 19). */
function niceOf(task: string): number {
  const stat = readFileSync(`/proc/${task}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe.skipIf(!existsSync('/proc/thread-self'))("lowering a thread's priority", () => {
  it('lowers the calling thread alone, not the process it runs in', async () => {
    const code = `
      import { parentPort } from 'node:worker_threads';
      import { readlinkSync } from 'node:fs';
      import { getPriority } from 'node:os';
      const { lowerThisThreadsPriority } = await import(${JSON.stringify(BUILT.href)});
      const task = readlinkSync('/proc/thread-self');
      const threadId = Number(task.split('/').at(-1));
      const was = getPriority(threadId);
      const lowered = lowerThisThreadsPriority();
      parentPort.postMessage({ was, lowered, task });
      // Kept alive until the test has read its nice value.
      parentPort.once('message', () => process.exit(0));
    `;
    const before = niceOf(thisThread());
    const worker = new Worker(code, { eval: true, type: 'module' } as ConstructorParameters<typeof Worker>[1]);
    try {
      const told = await new Promise<{ was: number; lowered: boolean; task: string }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      // A thread already at that priority or below is left there: lowering never raises.
      expect(told.lowered).toBe(told.was < constants.priority.PRIORITY_BELOW_NORMAL);
      expect(niceOf(told.task)).toBe(Math.max(told.was, constants.priority.PRIORITY_BELOW_NORMAL));
      expect(niceOf(thisThread())).toBe(before);
    } finally {
      await worker.terminate();
    }
  });
});

/** This thread's own entry under /proc, as `PID/task/TID`. */
function thisThread(): string {
  return `${process.pid}/task/${readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]}`;
}
