import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSha256 } from '../../src/report/file-sha256.js';

const dir = mkdtempSync(join(tmpdir(), 'pc-file-sha256-'));

describe('a file\'s sha256, read through one reused buffer', () => {
  it('is the hash of all its bytes when the file spans many reads and ends in a partial one', async () => {
    const bytes = randomBytes(10 * 1024 + 37);
    const path = join(dir, 'many-reads.bin');
    writeFileSync(path, bytes);
    // A 1 KiB buffer: ten whole reads, then a short one; stale bytes of the buffer must not be hashed.
    expect(await fileSha256(path, 1024)).toEqual({ sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
  });

  it('is the hash of nothing for an empty file', async () => {
    const path = join(dir, 'empty.bin');
    writeFileSync(path, '');
    expect(await fileSha256(path)).toEqual({ sha256: createHash('sha256').digest('hex'), bytes: 0 });
  });

  it('rejects with the system\'s error for a file that is not there', async () => {
    await expect(fileSha256(join(dir, 'missing.bin'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
