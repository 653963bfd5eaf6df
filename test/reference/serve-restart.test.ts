import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../e2e/run-cli.js';
import { accepted, read, readUntilFinal, submit } from './support.js';

const BIN = join(ROOT, 'bin', 'provisioner-conformance.js');
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map(stop));
});

/** Starts `serve` and resolves with the URL it prints once it listens. */
function serve(args: string[]): Promise<{ url: string; child: ChildProcessWithoutNullStreams }> {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('build first: npm run build');
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd: ROOT });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve({ url: out.trim(), child });
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code} before printing its URL: ${err}`)));
  });
}

function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe('serve --store', () => {
  it('is killed and started again on the same --port and --store, and still knows and finishes an accepted operation', async () => {
    const store = join(mkdtempSync(join(tmpdir(), 'pc-serve-store-')), 'operations.json');
    const first = await serve(['--mode', 'async', '--work', 'PT1S', '--store', store]);
    const id = await accepted(first.url);
    expect(await stop(first.child)).toBe(0);
    const port = new URL(first.url).port;
    const second = await serve(['--mode', 'async', '--work', 'PT1S', '--store', store, '--port', port]);
    expect(second.url).toBe(first.url);
    expect((await read(second.url, id)).status).toBe(200);
    expect((await readUntilFinal(second.url, id, 50)).at(-1)!.json?.outcome).toBe('succeeded');
  });

  it('answers at once with 200 when --max-operations are in progress', async () => {
    const { url } = await serve(['--mode', 'async', '--work', 'PT30S', '--max-operations', '1']);
    expect((await submit(url, 'apply')).status).toBe(202);
    const full = await submit(url, 'apply');
    expect(full.status).toBe(200);
    expect(full.json?.outcome).toBe('succeeded');
  });

  it('refuses a store that is not its own with a usage error', async () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'pc-serve-store-')), 'other.json');
    writeFileSync(bad, '{"name": "something else"}');
    await expect(serve(['--store', bad])).rejects.toThrow(/exited with 2 .*--store.*is not a reference store/);
  });
});
