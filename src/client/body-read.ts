import type { Readable } from 'node:stream';
import { COLLECTION_SCHEDULE } from './collection-schedule.js';

const ignore = (): void => undefined;

export type Body = Pick<Readable, 'on' | 'off' | 'destroy' | 'errored' | 'destroyed' | 'pause' | 'resume'>;

/** What a read asks before it holds more than `freeBytes` of a body. */
export interface HoldGate {
  readonly freeBytes: number;
  /** Asks to hold more: a promise when the read must wait for it, its stream paused meanwhile. */
  ask(): Promise<void> | undefined;
}

/**
 * Hands the body's chunks up to `limit` bytes to `take`, not joined: a body the store already holds is never
 * copied. Resolves whether the body was cut. Read with 'data' events rather than an async iterator, whose
 * promises and end-of-stream listeners cost more than the read. With a `gate`, a read past its free bytes
 * asks once to hold more and waits, paused, until it may.
 */
export function readLimited(body: Body, limit: number, take: (chunk: Buffer) => void, gate?: HoldGate): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let asked = gate === undefined;
    let settled = false;
    const askToHoldMore = (): void => {
      asked = true;
      const wait = gate!.ask();
      if (wait === undefined) return;
      body.pause();
      void wait.then(() => {
        if (!settled) body.resume();
      });
    };
    const settle = (): void => {
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const onData = (chunk: Uint8Array): void => {
      // undici hands over Buffers: wrap, never copy, a chunk that is not one.
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (bytes + buffer.length > limit) {
        take(buffer.subarray(0, limit - bytes));
        bytes = limit;
        settle();
        // undici's body errors when destroyed before its end: that error is the cut itself, not news.
        body.on('error', ignore);
        body.destroy();
        resolve(true);
        return;
      }
      take(buffer);
      bytes += buffer.length;
      COLLECTION_SCHEDULE.read(buffer.length);
      if (!asked && bytes > gate!.freeBytes) askToHoldMore();
    };
    const onEnd = (): void => {
      settle();
      resolve(false);
    };
    const onError = (error: Error): void => {
      settle();
      reject(error);
    };
    // Closed with neither an end nor an error: what an async iterator over it would throw.
    const onClose = (): void => {
      settle();
      reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    // Destroyed before it was read (its events already emitted): what an async iterator would throw.
    if (body.errored) return reject(body.errored);
    if (body.destroyed) return onClose();
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}
