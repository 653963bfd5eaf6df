/**
 * The reference provisioner in a process of its own (the CLI's `serve` command), so that the bench's own
 * CPU time is the kit's alone.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'provisioner-conformance.js');

export interface ServedReference {
  url: string;
  close(): Promise<void>;
}

/** Starts `serve` on a free loopback port and resolves once it prints its URL. */
export async function serveReference(args: readonly string[]): Promise<ServedReference> {
  const child = spawn(process.execPath, [BIN, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  // Its banner would break the bench's table; kept to explain a serve that fails to start.
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const url = await Promise.race([
    once(lines, 'line').then(([line]) => String(line).trim()),
    exited.then(([code]) => {
      throw new Error(`serve exited with code ${String(code)} before printing its URL: ${stderr.trim()}`);
    }),
  ]);
  lines.close();
  return {
    url,
    close: async () => {
      // serve closes its server and exits on SIGTERM.
      child.kill('SIGTERM');
      await exited;
    },
  };
}
