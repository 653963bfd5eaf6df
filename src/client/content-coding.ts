import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { Transform } from 'node:stream';

/**
 * The content codings a control plane's HTTP client decodes before it reads a body. A provisioner (or a proxy in
 * front of it) may compress an answer even to a request that did not ask for it: a request without
 * Accept-Encoding accepts any coding. Each decoder flushes what it has, so that a body cut at the limit still
 * gives its head.
 */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip({ finishFlush: constants.Z_SYNC_FLUSH }),
  'x-gzip': () => createGunzip({ finishFlush: constants.Z_SYNC_FLUSH }),
  deflate: () => createInflate({ finishFlush: constants.Z_SYNC_FLUSH }),
  br: () => createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH }),
};

export interface DecodedBody {
  chunks: Buffer[];
  /** The decoded body was longer than the limit and was cut. */
  truncated: boolean;
}

/**
 * The body decoded from the coding its Content-Encoding names, at most `limit` bytes of it (a small body may
 * decode to a huge one). Undefined when there is nothing to decode: no coding, `identity`, a coding the kit does
 * not know, several codings, or bytes that do not decode; the body is then kept as it came, and the header shows why.
 */
export async function decodeBody(chunks: readonly Buffer[], contentEncoding: string | undefined, limit: number): Promise<DecodedBody | undefined> {
  const coding = contentEncoding?.trim().toLowerCase();
  if (!coding || coding === 'identity') return undefined;
  const decoder = DECODERS[coding];
  if (!decoder) return undefined;
  const decoded = await decode(chunks, decoder(), limit);
  // Many servers send deflate without its zlib wrapper.
  if (!decoded && coding === 'deflate') return decode(chunks, createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH }), limit);
  return decoded;
}

function decode(chunks: readonly Buffer[], decoder: Transform, limit: number): Promise<DecodedBody | undefined> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (result: DecodedBody | undefined): void => {
      if (done) return;
      done = true;
      decoder.destroy();
      resolve(result);
    };
    decoder.on('data', (chunk: Buffer) => {
      if (done) return;
      if (bytes + chunk.length > limit) {
        out.push(chunk.subarray(0, limit - bytes));
        finish({ chunks: out, truncated: true });
        return;
      }
      out.push(chunk);
      bytes += chunk.length;
    });
    decoder.on('end', () => finish({ chunks: out, truncated: false }));
    decoder.on('error', () => finish(undefined));
    for (const chunk of chunks) decoder.write(chunk);
    decoder.end();
  });
}
