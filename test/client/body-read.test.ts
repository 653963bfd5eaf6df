import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { readLimited } from '../../src/client/body-read.js';

describe('a body read within a limit', () => {
  it('hands every chunk over and cuts the body at the limit', async () => {
    const body = new PassThrough();
    const taken: Buffer[] = [];
    const read = readLimited(body, 10, (chunk) => taken.push(chunk));
    body.write(Buffer.from('0123456'));
    body.write(Buffer.from('789abc'));
    expect(await read).toBe(true);
    expect(Buffer.concat(taken).toString()).toBe('0123456789');
    expect(body.destroyed).toBe(true);
  });

  it('ends with the body, whole, and fails with its error', async () => {
    const body = new PassThrough();
    const taken: Buffer[] = [];
    const read = readLimited(body, 1_000, (chunk) => taken.push(chunk));
    body.end(Buffer.from('{"a":1}'));
    expect(await read).toBe(false);
    expect(Buffer.concat(taken).toString()).toBe('{"a":1}');
    const broken = new PassThrough();
    const failing = readLimited(broken, 1_000, () => undefined);
    broken.destroy(new Error('reset'));
    await expect(failing).rejects.toThrow('reset');
  });

  it('holds its first bytes freely, then waits paused for its turn before it takes more', async () => {
    const body = new PassThrough();
    const taken: string[] = [];
    let grant: () => void = () => undefined;
    let asks = 0;
    const gate = {
      freeBytes: 4,
      ask: () => {
        asks++;
        return new Promise<void>((resolve) => (grant = resolve));
      },
    };
    const read = readLimited(body, 1_000, (chunk) => taken.push(chunk.toString()), gate);
    body.write('abc');
    body.write('def');
    body.write('ghi');
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toEqual(['abc', 'def']);
    expect(body.isPaused()).toBe(true);
    grant();
    body.end('jkl');
    expect(await read).toBe(false);
    expect(taken.join('')).toBe('abcdefghijkl');
    expect(asks).toBe(1);
  });

  it('goes on at once when its turn is free, and fails with the body while it waits', async () => {
    const body = new PassThrough();
    const taken: Buffer[] = [];
    const read = readLimited(body, 1_000, (chunk) => taken.push(chunk), { freeBytes: 2, ask: () => undefined });
    body.end('{"a":1}');
    expect(await read).toBe(false);
    expect(Buffer.concat(taken).toString()).toBe('{"a":1}');
    const waiting = new PassThrough();
    const failing = readLimited(waiting, 1_000, () => undefined, { freeBytes: 2, ask: () => new Promise<void>(() => undefined) });
    waiting.write('abcdef');
    await new Promise((resolve) => setImmediate(resolve));
    waiting.destroy(new Error('stopped'));
    await expect(failing).rejects.toThrow('stopped');
  });
});
