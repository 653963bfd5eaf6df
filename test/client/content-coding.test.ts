import { describe, expect, it } from 'vitest';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import type { ProvisionerClient } from '../../src/client/client.js';
import { decodeBody } from '../../src/client/content-coding.js';
import { useLoopbackClient } from '../support/loopback-client.js';

const FINAL = '{"outcome":"succeeded","description":"done","results":[]}';

describe('compressed answers', () => {
  const loopback = useLoopbackClient();

  function serve(encoding: string, body: Buffer, bodyLimitBytes?: number): Promise<ProvisionerClient> {
    return loopback(
      (req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding }).end(body);
      },
      bodyLimitBytes ? { bodyLimitBytes } : {},
    );
  }

  const read = (c: ProvisionerClient) => c.send({ suite: 'test', tag: 'poll', probe: false, method: 'GET', path: '/operations/a', operationId: 'a', timeoutMs: 5_000 });

  it.each([
    ['gzip', gzipSync(FINAL)],
    ['x-gzip', gzipSync(FINAL)],
    ['deflate', deflateSync(FINAL)],
    ['deflate', deflateRawSync(FINAL)],
    ['br', brotliCompressSync(FINAL)],
    ['GZIP', gzipSync(FINAL)],
  ])('are read decoded, as the control plane reads them, with content-encoding %s', async (encoding, body) => {
    const exchange = await read(await serve(encoding, body));
    expect(exchange.response).toMatchObject({ body: FINAL, truncated: false, json: { ok: true, value: JSON.parse(FINAL) as unknown }, headers: { 'content-encoding': encoding } });
  });

  it('are cut at the body limit once decoded, whatever their compressed size', async () => {
    const huge = `{"description":"${'x'.repeat(5_000_000)}"}`;
    const compressed = gzipSync(huge);
    expect(compressed.length).toBeLessThan(64 * 1024);
    const exchange = await read(await serve('gzip', compressed, 64 * 1024));
    expect(exchange.response?.truncated).toBe(true);
    expect(exchange.response?.bodyBytes).toBe(64 * 1024);
    expect(exchange.response?.body.startsWith('{"description":"xxx')).toBe(true);
  });

  it('are kept as they came when the coding is unknown, several, identity, or the bytes do not decode', async () => {
    for (const [encoding, body] of [['compress', Buffer.from(FINAL)], ['gzip, br', Buffer.from(FINAL)], ['identity', Buffer.from(FINAL)], ['gzip', Buffer.from('not gzip at all')]] as const) {
      expect((await decodeBody([body], encoding, 1024))).toBeUndefined();
    }
    const exchange = await read(await serve('gzip', Buffer.from(FINAL)));
    expect(exchange.response).toMatchObject({ body: FINAL, headers: { 'content-encoding': 'gzip' } });
  });
});
