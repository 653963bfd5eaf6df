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
});
