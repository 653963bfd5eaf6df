import { performance } from 'node:perf_hooks';

/** Epoch milliseconds with sub-millisecond precision and a monotonic source, so exchange times order correctly. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
