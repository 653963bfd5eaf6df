import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// A user watching the kit catch a fault gives its name and nothing else: the fault's needs are applied for them.
describe('run --reference --reference-fault NAME, with no other flag', () => {
  it.concurrent.each([
    ['full-429', 'capacity.burst'],
    ['racing-reads', 'operation.no-in-progress-after-final'],
  ])('%s fails %s', async (fault, rule) => {
    const run = await runCli(['run', '--reference', '--reference-fault', fault]);
    expect(run.stderr).toMatch(new RegExp(`^provisioner-conformance: the fault ${fault} needs .*: applied$`, 'm'));
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.report?.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([rule]);
  });
});
