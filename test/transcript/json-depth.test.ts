import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProvisionerClient } from '../../src/client/client.js';
import { nestsDeeperThan } from '../../src/core/json-depth.js';
import { MAX_JSON_DEPTH } from '../../src/transcript/json-body.js';
import { Transcript } from '../../src/transcript/transcript.js';

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not scalars, and walks 100 000 levels without a stack', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
    expect(nestsDeeperThan(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)), MAX_JSON_DEPTH)).toBe(true);
  });
});

describe('the client', () => {
  let server: Server | undefined;
  let client: ProvisionerClient | undefined;
  afterEach(async () => {
    await client?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('keeps an answer nested deeper than it reads as text, with a reason instead of a parsed value', async () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    server = createServer((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(deep));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    client = new ProvisionerClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, transcript: new Transcript() });
    const exchange = await client.send({ suite: 'test', tag: 'invalid-change-set', probe: true, method: 'POST', path: '/plan', body: deep, timeoutMs: 5_000 });
    expect(exchange.response?.status).toBe(400);
    expect(exchange.response?.body).toBe(deep);
    expect(exchange.response?.json).toEqual({ ok: false, error: `the JSON nests deeper than ${MAX_JSON_DEPTH} levels, more than the kit reads` });
  });
});
