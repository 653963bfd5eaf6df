import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Client } from 'undici';
import { HeadCount } from '../../src/client/head-count.js';

/** The count of a head read whole, and whether it ended. */
function count(head: string, limit = 1_000_000): HeadCount {
  const counter = new HeadCount(limit);
  counter.read(Buffer.from(head, 'latin1'));
  return counter;
}

describe('the count of an answer head', () => {
  it('counts header names and values, not the status line, colons, whitespace around values or line ends', () => {
    const head = count('HTTP/1.1 200 OK\r\ncontent-type:  application/json \r\nx-a: b c\r\n\r\n');
    expect(head.counted).toBe('content-type'.length + 'application/json'.length + 'x-a'.length + 'b c'.length);
    expect(head.ended).toBe(true);
  });

  it('reads a head that comes in pieces as it reads it whole, split anywhere', () => {
    const text = 'HTTP/1.1 200 OK\r\nx-name: some value\r\nx-other:\tv\r\n\r\n{"body":"x-not: counted"}';
    const whole = count(text);
    for (let cut = 1; cut < text.length; cut++) {
      const counter = new HeadCount(1_000_000);
      counter.read(Buffer.from(text.slice(0, cut), 'latin1'));
      counter.read(Buffer.from(text.slice(cut), 'latin1'));
      expect([cut, counter.counted, counter.ended]).toEqual([cut, whole.counted, true]);
    }
  });

  it('reads from an offset, and stops at the empty line: the body is not counted', () => {
    const counter = new HeadCount(1_000_000);
    const bytes = Buffer.from('ignored\nHTTP/1.1 200 OK\nx-a: b\n\nx-body: not a header\r\n');
    counter.read(bytes, 'ignored\n'.length);
    expect(counter.counted).toBe('x-a'.length + 'b'.length);
    expect(counter.ended).toBe(true);
  });

  it('does not count lines it cannot read as headers, nor folded continuations', () => {
    const head = count('HTTP/1.1 200 OK\r\nno colon here\r\n: no name\r\nx-a: b\r\n  folded more\r\n\r\n');
    expect(head.counted).toBe('x-a'.length + 'b'.length);
    expect(head.ended).toBe(true);
  });

  it('is not ended before its empty line, and overflows once the count reaches the limit', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `x-h${i}: v\r\n`).join('');
    const under = count(`HTTP/1.1 200 OK\r\n${lines}`, 1_000);
    expect(under.ended).toBe(false);
    expect(under.overflowed).toBe(false);
    const exact = count('HTTP/1.1 200 OK\r\nabc: de\r\n', 5);
    expect(exact.overflowed).toBe(true);
    const over = count(`HTTP/1.1 200 OK\r\n${lines}\r\n`, 100);
    expect(over.overflowed).toBe(true);
    // It stops reading at the limit: the rest of the head is not counted.
    expect(over.counted).toBeLessThan(110);
    expect(over.ended).toBe(false);
  });
});

describe('the count against undici', () => {
  // Each connection is answered with the head its request names (`GET /<index>`), then a body of 2 bytes.
  const heads = [
    'x-a: b\r\n',
    'content-type: application/json\r\nx-empty:\r\nx-spaced:   inner  spaces\r\n',
    'x-tab:\tv\r\n'.repeat(50),
    'x-trailing: value   \r\nx-b: v\r\n',
    Array.from({ length: 300 }, (_, i) => `x-h${i}: v\r\n`).join(''),
  ].map((lines) => `HTTP/1.1 200 OK\r\n${lines}content-length: 2\r\n\r\n{}`);
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((socket) => {
      socket.once('data', (request: Buffer) => {
        const index = Number(/^GET \/(\d+)/.exec(request.toString('latin1'))?.[1]);
        socket.end(Buffer.from(heads[index]!, 'latin1'));
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** What undici, refusing a count of `limit`, makes of head `index`: its status, or its error's code. */
  async function undiciReads(index: number, limit: number): Promise<number | string> {
    const client = new Client(url, { maxHeaderSize: limit, pipelining: 0 });
    try {
      const answer = await client.request({ method: 'GET', path: `/${index}` });
      await answer.body.text();
      return answer.statusCode;
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    } finally {
      await client.destroy();
    }
  }

  it('never passes undici\'s: a head counted up to a limit is refused by undici at that limit', async () => {
    for (const [index, head] of heads.entries()) {
      const counted = count(head).counted;
      expect([index, await undiciReads(index, counted)]).toEqual([index, 'UND_ERR_HEADERS_OVERFLOW']);
    }
  });

  it('is undici\'s for heads without whitespace at the end of a value: one byte more, and undici reads the answer', async () => {
    for (const index of [0, 1, 2, 4]) {
      const counted = count(heads[index]!).counted;
      expect([index, await undiciReads(index, counted + 1)]).toEqual([index, 200]);
    }
  });
});
