import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { RULES } from '../../src/rules/index.js';
import { FAULTS } from '../../src/reference/index.js';
import { ROOT, runCli } from './run-cli.js';

const BIN = join(ROOT, 'bin', 'provisioner-conformance.js');

describe('the rules command', () => {
  it('lists every rule of the catalog as JSON, saying which ones this version judges', async () => {
    const run = await runCli(['rules', '--json'], { withReport: false });
    expect(run.exitCode).toBe(0);
    const rules = JSON.parse(run.stdout) as Array<{ id: string; level: string; sentence: string }>;
    expect(rules.map((rule) => rule.id)).toEqual(RULES.map((rule) => rule.id));
  });

  it('prints one entry per rule as text', async () => {
    const run = await runCli(['rules'], { withReport: false });
    expect(run.exitCode).toBe(0);
    for (const rule of RULES) expect(run.stdout).toContain(rule.id);
    expect(run.stdout).toMatch(/capacity\.burst /);
    expect(run.stdout).not.toContain('not exercised yet');
  });
});

describe('the serve command', () => {
  it('lists the faults with the rule each one breaks', async () => {
    const run = await runCli(['serve', '--list-faults'], { withReport: false });
    expect(run.exitCode).toBe(0);
    for (const fault of FAULTS) expect(run.stdout).toMatch(new RegExp(`^${fault.name} +${fault.breaks.join(', ').replaceAll('.', '\\.')} `, 'm'));
  });

  it('prints its URL when ready, answers there, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--mode', 'async', '--work', 'PT0.1S'], { cwd: ROOT });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
        child.on('exit', () => reject(new Error('serve exited before printing its URL')));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const answer = await fetch(`${url}/plan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] }),
      });
      expect(answer.status).toBe(202);
      const unknown = await fetch(`${url}/operations/6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b`);
      expect(unknown.status).toBe(404);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await new Promise((resolve) => child.on('exit', (code) => resolve(code)))).toBe(0);
  });
});
