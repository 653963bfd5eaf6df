import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** Bytes read at a time: one buffer, reused for the whole file. */
const READ_BYTES = 64 * 1024;

/**
 * The sha256 (hex) and size of a file, read through one buffer reused for every read. A read stream hands out a
 * new buffer for each chunk, and a file of tens of MB (a long run's transcript) left tens of MB of them to
 * pile up outside the heap before a collection freed them.
 */
export async function fileSha256(path: string, readBytes = READ_BYTES): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(readBytes);
  const file = await open(path, 'r');
  let bytes = 0;
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      bytes += bytesRead;
    }
  } finally {
    await file.close();
  }
  return { sha256: hash.digest('hex'), bytes };
}
