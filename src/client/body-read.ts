import type { Readable } from 'node:stream';
import { COLLECTOR_PACING } from './collector-pacing.js';

const ignore = (): void => undefined;

export type Body = Pick<Readable, 'on' | 'off' | 'destroy' | 'errored' | 'destroyed'>;

/**
 * Hands the body's chunks up to `limit` bytes to `take`, not joined: a body the store already holds is never
 * copied. Resolves whether the body was cut. Read with 'data' events rather than an async iterator, whose
 * promises and end-of-stream listeners cost more than the read.
 */
export function readLimited(body: Body, limit: number, take: (chunk: Buffer) => void): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const settle = (): void => {
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
      COLLECTOR_PACING.read(buffer.length);
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
