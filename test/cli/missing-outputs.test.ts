import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** What main prints on stdout and stderr for a command line, and its exit code. */
async function ran(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const exitCode = await main(argv);
  return { exitCode, stdout, stderr };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('verify, when a report it was asked for cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))('names it on stderr and in the verdict line, and exits 2, as run does', async () => {
    const { exitCode, stdout, stderr } = await ran(['verify', join(ROOT, 'fixtures', 'transcripts', 'correct-async.json'), '--report', '/dev/full']);
    expect(stderr).toBe('provisioner-conformance: --report /dev/full: cannot write it: no space left on the device (ENOSPC) [KIT_OUTPUT]\n');
    expect(stdout).toMatch(/verdict: \S+, but the JSON report \/dev\/full could not be written \(exit 2\)/);
    expect(exitCode).toBe(2);
  });

  it('refuses an output path that cannot be written before it reads the transcript', async () => {
    const { exitCode, stdout, stderr } = await ran(['verify', 'no/such/transcript.json', '--junit', '/dev/null/junit.xml']);
    expect(stderr).toMatch(/^provisioner-conformance: --junit: \/dev\/null is a file, so \/dev\/null\/junit\.xml cannot be made under it .*\[KIT_CONFIG\]\n$/);
    expect(stdout).toBe('');
    expect(exitCode).toBe(2);
  });
});
