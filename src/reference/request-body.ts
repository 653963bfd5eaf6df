import type { IncomingMessage } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;

export type BodyRead = { tooLarge: false; text: string } | { tooLarge: true };

/**
 * Reads a request body as UTF-8 text, keeping at most `limit` bytes. A longer body is still read to
 * its end (and dropped), so the client has finished sending before it gets its 413.
 */
export function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => {
      resolve(size > limit ? { tooLarge: true } : { tooLarge: false, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before the body ended'));
    });
  });
}
