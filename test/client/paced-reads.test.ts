import { describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import type { ProvisionerClient } from '../../src/client/client.js';
import { paceReads, PARSER_READ_BYTES } from '../../src/client/paced-reads.js';
import { COLLECTION_SCHEDULE } from '../../src/client/collection-schedule.js';
import { useLoopbackClient } from '../support/loopback-client.js';

describe('paced socket reads', () => {
  it('hand the parser at most a few KiB at a time, and nothing once the socket is destroyed', () => {
    const socket = new PassThrough();
    paceReads(socket as unknown as Parameters<typeof paceReads>[0]);
    socket.write(Buffer.alloc(PARSER_READ_BYTES * 2 + 100, 'a'));
    expect((socket.read() as Buffer).length).toBe(PARSER_READ_BYTES);
    expect((socket.read() as Buffer).length).toBe(PARSER_READ_BYTES);
    socket.write(Buffer.alloc(PARSER_READ_BYTES, 'b'));
    socket.destroy();
    expect(socket.read()).toBeNull();
  });

  it('leave a small read whole', () => {
    const socket = new PassThrough();
    paceReads(socket as unknown as Parameters<typeof paceReads>[0]);
    socket.write(Buffer.from('HTTP/1.1 200 OK\r\n\r\n'));
    expect((socket.read() as Buffer).toString()).toBe('HTTP/1.1 200 OK\r\n\r\n');
  });

  it('hand over a head within the limit and its body in order, a head longer than a read included', () => {
    const socket = new PassThrough();
    paceReads(socket as unknown as Parameters<typeof paceReads>[0]);
    const head = `HTTP/1.1 200 OK\r\n${Array.from({ length: 40 }, (_, i) => `x-header-${i}: ${'v'.repeat(50)}\r\n`).join('')}\r\n`;
    const answer = Buffer.concat([Buffer.from(head), Buffer.alloc(PARSER_READ_BYTES * 3, 'z')]);
    socket.write(answer);
    const handed: Buffer[] = [];
    for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) handed.push(chunk);
    expect(Buffer.concat(handed).equals(answer)).toBe(true);
    expect(Math.max(...handed.map((chunk) => chunk.length))).toBe(PARSER_READ_BYTES);
    expect(socket.destroyed).toBe(false);
  });

  it('refuse a head past the limit before any of it is handed over, with undici\'s error', async () => {
    const socket = new PassThrough();
    paceReads(socket as unknown as Parameters<typeof paceReads>[0], 64);
    const failed = new Promise<Error>((resolve) => socket.on('error', resolve));
    const answer = Buffer.from(`HTTP/1.1 200 OK\r\n${'x-header: value\r\n'.repeat(10)}\r\n{}`);
    socket.write(answer);
    const counted = vi.spyOn(COLLECTION_SCHEDULE, 'read').mockReturnValue(false);
    expect(socket.read()).toBeNull();
    // What the socket read of it is dropped, and counted towards the next collection as bodies are.
    expect(counted).toHaveBeenCalledWith(answer.length);
    counted.mockRestore();
    expect(socket.destroyed).toBe(true);
    expect(await failed).toMatchObject({ code: 'UND_ERR_HEADERS_OVERFLOW' });
  });

  it('count each answer\'s head from the request written before it', () => {
    const socket = new PassThrough();
    paceReads(socket as unknown as Parameters<typeof paceReads>[0], 64);
    // Within the limit: the first answer's head and body; then the body alone would be past it, were it a head.
    socket.write(Buffer.from(`HTTP/1.1 200 OK\r\nx-a: b\r\n\r\n${'x-body: not a header\r\n'.repeat(10)}`));
    expect((socket.read() as Buffer).length).toBeGreaterThan(0);
    for (let chunk = socket.read(); chunk !== null; chunk = socket.read());
    expect(socket.destroyed).toBe(false);
    // The next request's answer is counted anew: its head is past the limit.
    socket.write(Buffer.from(`HTTP/1.1 200 OK\r\n${'x-header: value\r\n'.repeat(10)}\r\n`));
    socket.on('error', () => undefined);
    expect(socket.read()).toBeNull();
    expect(socket.destroyed).toBe(true);
  });
});

describe('an answer with 10,000 headers', () => {
  const loopback = useLoopbackClient();
  const headers = Array.from({ length: 10_000 }, (_, i) => [`x-h${i}`, 'v']).flat();

  it('is recorded as one shared transport error that says the headers were too long, and the next read on the client is answered', async () => {
    let calls = 0;
    const client: ProvisionerClient = await loopback((req, res) => {
      req.resume();
      if (calls++ < 2) res.writeHead(200, headers).end('{}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"outcome":"succeeded","description":"done","results":[]}');
    });
    const read = () => client.send({ suite: 'test', tag: 'poll', probe: false, method: 'GET', path: '/operations/a', operationId: 'a', timeoutMs: 10_000 });
    const flooded = await read();
    expect(flooded.response).toBeUndefined();
    expect(flooded.error?.message).toMatch(/^the answer's headers are longer than [\d,]+ bytes, more than the kit .* reads \(UND_ERR_HEADERS_OVERFLOW\)$/);
    // Every read that fails the same way shares one recorded error.
    expect((await read()).error).toBe(flooded.error);
    const next = await read();
    expect(next.response?.status).toBe(200);
  });
});
