import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './run-cli.js';

describe('a run stopped with Ctrl-C', () => {
  it('ends promptly, judges what it saw and never passes', async () => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'provisioner-conformance.js'), 'run', '--reference', '--reference-mode', 'async', '--reference-fault', 'never-finishes', '--no-properties'],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const accepted = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('accepted')) resolve();
      }),
    );
    await accepted;
    child.kill('SIGINT');
    const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(exitCode).toBe(2);
    expect(stdout).toContain('the run was stopped before it ended');
    expect(stdout).toMatch(/verdict: error/);
  });
});
