import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveHandlers } from '../support/msw-server.js';
import { barrierProvisioner, situationProvisioner } from '../support/situation-provisioners.js';
import { situationTranscriptFile } from '../support/record-transcripts.js';
import { readTranscriptFile } from '../../src/transcript/transcript-file.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { SITUATION_EXPECTATIONS, SITUATION_FLAGS } from './situation-expectations.js';
import { runCli } from './run-cli.js';

// RECORD_TRANSCRIPTS=1 also keeps each run's transcript, for the rule tests that judge recordings again.
const recording = process.env.RECORD_TRANSCRIPTS === '1';

describe('the repeat and burst suites against provisioners written apart from the kit', () => {
  // Each test closes its own server, whatever happens.
  it.each(SITUATION_EXPECTATIONS.map((e) => [e.name, e] as const))('%s', async (_name, expectation) => {
    const server = await serveHandlers(situationProvisioner(expectation.quirks));
    const transcript = recording ? ['--transcript', situationTranscriptFile(expectation.name)] : [];
    const run = await runCli(['run', '--url', server.url, ...SITUATION_FLAGS, ...(expectation.flags ?? []), ...transcript]).finally(() => server.close());
    const report = run.report;
    expect(report, run.stderr).toBeDefined();
    const ids = (status: string): string[] => report!.rules.filter((r) => r.status === status).map((r) => r.id).sort();
    expect({ fail: ids('fail'), warn: ids('warn'), advice: ids('advice') }, run.stdout).toEqual({
      fail: [...(expectation.fail ?? [])].sort(),
      warn: [...(expectation.warn ?? [])].sort(),
      advice: [],
    });
    for (const id of expectation.pass) expect(report!.rules.find((r) => r.id === id)!.status, `${id}\n${run.stdout}`).toBe('pass');
    for (const id of [...(expectation.fail ?? []), ...(expectation.warn ?? [])]) {
      const rule = report!.rules.find((r) => r.id === id)!;
      expect(rule.evidence.length).toBeGreaterThan(0);
      expect(run.stdout).toContain(id);
    }
    expect(run.exitCode).toBe(expectation.exitCode);
  });

  it('has every call of the burst in flight at once, more than the kit opens connections for anything else', async () => {
    const burst = 60;
    const barrier = barrierProvisioner(burst, 20_000);
    const server = await serveHandlers(barrier.handlers);
    const file = join(mkdtempSync(join(tmpdir(), 'pc-burst-')), 'transcript.json');
    const run = await runCli(['run', '--url', server.url, '--no-properties', '--burst', String(burst), '--change-set', 'fixtures/change-sets/postgres.json', '--transcript', file]).finally(() =>
      server.close(),
    );
    expect(run.report!.rules.find((r) => r.id === 'capacity.burst'), run.stdout).toMatchObject({ status: 'pass' });
    expect(barrier.mostOpen()).toBeGreaterThanOrEqual(burst);
    const { transcript } = await readTranscriptFile(file);
    const calls = transcript.exchanges.filter((e) => e.suite === SITUATION_SUITES.burst);
    expect(calls).toHaveLength(burst);
    // All of them overlap: the last one was sent before the first answer came back.
    expect(Math.max(...calls.map((c) => c.sentAt))).toBeLessThan(Math.min(...calls.map((c) => c.respondedAt!)));
    expect(run.exitCode).toBe(0);
  });
});
