import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli.js';

describe('verify: judging a written transcript again, offline', () => {
  it('reaches the same verdict on every rule as the run that wrote it', async () => {
    const transcript = join(mkdtempSync(join(tmpdir(), 'pc-verify-')), 'transcript.json');
    const run = await runCli([
      'run', '--reference', '--reference-mode', 'async', '--reference-fault', 'final-changes',
      '--reference-work', 'PT0.3S', '--poll-interval', 'PT0.1S', '--no-properties', '--transcript', transcript,
    ]);
    expect(run.exitCode).toBe(1);
    const verify = await runCli(['verify', transcript]);
    expect(verify.exitCode).toBe(1);
    expect(verify.stdout).toContain('judged again offline');
    for (const rule of run.report!.rules) {
      expect(verify.stdout).toMatch(new RegExp(`^. ${rule.status.replace('-', '\\-')} +${rule.id.replace(/\./g, '\\.')} `, 'm'));
    }
    // The same report outputs as the run's: its JSON report holds every rule as the run judged it.
    expect(verify.report!.rules.map((rule) => [rule.id, rule.status])).toEqual(run.report!.rules.map((rule) => [rule.id, rule.status]));
  });

  it('says which file it cannot read, with exit code 2', async () => {
    const verify = await runCli(['verify', 'no/such/transcript.json'], { withReport: false });
    expect(verify.exitCode).toBe(2);
    expect(verify.stderr).toContain('no/such/transcript.json');
  });
});
