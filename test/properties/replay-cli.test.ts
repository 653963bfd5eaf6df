import { describe, expect, it } from 'vitest';
import { bundledChangeSetFiles, loadChangeSets } from '../../src/config/change-sets.js';
import { runCli } from '../e2e/run-cli.js';

interface ReportedProperty {
  name: string;
  status: string;
  numRuns: number;
  seed: number;
  path?: string;
  counterexample?: string;
  ruleIds: string[];
  replay: string[];
}

const FAULTY = ['run', '--reference', '--reference-mode', 'mixed', '--reference-fault', 'long-id-result-lost', '--poll-interval', 'PT0.1S', '--reference-work', 'PT0.2S'];

/** A change set without its changes: the fields a generated one keeps from its template. */
function fieldsBesidesChanges(text: string): string {
  const { changes: _changes, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** The arguments of the replay line the console printed for a property (they are plain words here). */
function replayLine(stdout: string, property: string): string[] {
  const line = stdout.split('\n').find((l) => l.includes('replay: provisioner-conformance') && l.includes(`--property ${property}`));
  if (!line) throw new Error(`no replay line for ${property} in:\n${stdout}`);
  return line.trim().slice('replay: provisioner-conformance '.length).split(' ');
}

describe('replaying a property failure from the command line', () => {
  it('repeats exactly the shrunk counterexample from the printed --property, --seed and --path', async () => {
    const first = await runCli(FAULTY);
    expect(first.exitCode).toBe(1);
    const found = (first.report!.properties as ReportedProperty[]).find((p) => p.name === 'property/generated-plans')!;
    expect(found.status).toBe('failed');
    expect(found.ruleIds).toEqual(['final.results-match-changes']);
    // numRuns counts sub-cases: the default 20 generated plans (one batch) and the shrinks of the one that failed.
    expect(found.numRuns).toBeGreaterThanOrEqual(20);
    // The counterexample is a body as sent: one of the bundled change sets, with generated changes.
    const bundled = await loadChangeSets(await bundledChangeSetFiles(), '/changes');
    expect(bundled.map((changeSet) => fieldsBesidesChanges(changeSet.text))).toContain(fieldsBesidesChanges(found.counterexample!));

    const args = replayLine(first.stdout, found.name).filter((arg, i, all) => arg !== '--report' && all[i - 1] !== '--report');
    expect(args.slice(-6)).toEqual(['--property', found.name, '--seed', String(found.seed), '--path', found.path]);
    expect(found.replay).toEqual(args.slice(-6));

    const again = await runCli(args);
    expect(again.exitCode).toBe(1);
    const properties = again.report!.properties as ReportedProperty[];
    expect(properties.map((p) => p.name)).toEqual([found.name]);
    expect(properties[0]).toMatchObject({ status: 'failed', numRuns: 1, seed: found.seed, path: found.path, counterexample: found.counterexample });
    expect(again.report!.rules.find((r) => r.id === 'final.results-match-changes')!.status).toBe('fail');
  });

  it('names the flag of a bad property setting, exit 2', async () => {
    for (const [args, flag] of [
      [['--seed', 'soon'], '--seed'],
      [['--path', '1:2'], '--path'],
      [['--seed', '1', '--path', '1:2'], '--path'],
      [['--seed', '1', '--path', 'x'], '--path'],
      [['--property', 'property/none'], '--property'],
      [['--max-examples', '0'], '--max-examples'],
      [['--property-time-limit', 'a minute'], '--property-time-limit'],
      [['--no-properties', '--property', 'property/generated-plans'], '--property'],
    ] as const) {
      const run = await runCli(['run', '--reference', ...args], { withReport: false });
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(flag);
    }
  });

  it('runs the scenarios only with --no-properties', async () => {
    const run = await runCli(['run', '--reference', '--reference-mode', 'sync', '--no-properties']);
    expect(run.exitCode).toBe(0);
    expect(run.report!.properties).toEqual([]);
    expect(run.stdout).not.toContain('Properties');
    expect(run.report!.rules.find((r) => r.id === 'input.malformed-json')!.status).toBe('not-exercised');
  });
});
