import { join } from 'node:path';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../e2e/run-cli.js';

describe("a thread's priority", () => {
  it.runIf(process.platform === 'linux')("is lowered for the calling thread alone, not the process's other threads (built)", async () => {
    const module = JSON.stringify(join(ROOT, 'dist/src/core/thread-priority.js'));
    const worker = new Worker(
      `import(${module}).then(({ lowerThisThreadsPriority }) => {
        const { readlinkSync } = require('node:fs');
        const { getPriority } = require('node:os');
        const lowered = lowerThisThreadsPriority(10);
        const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
        require('node:worker_threads').parentPort.postMessage({ lowered, niceness: getPriority(tid) });
      })`,
      { eval: true },
    );
    const seen = (await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    })) as { lowered: boolean; niceness: number };
    await worker.terminate();
    expect(seen).toEqual({ lowered: true, niceness: 10 });
    expect(getPriority(process.pid)).toBe(0);
  });
});
