import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Expectation } from '../e2e/expectations.js';
import { ROOT, runCli } from '../e2e/run-cli.js';

/** Where recorded transcripts live: the kit against the reference provisioner, correct and with each fault. */
export const TRANSCRIPT_FOLDER = join(ROOT, 'fixtures', 'transcripts');

export function transcriptFileFor(expectation: Expectation): string {
  return join(TRANSCRIPT_FOLDER, `${expectation.name.replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '')}.json`);
}

/**
 * Records one transcript with the real CLI. To keep the files small: one change set (and the table's small
 * burst), and only the property that finds the fault (or a few cases of each when the scenarios find it).
 */
export async function recordTranscript(expectation: Expectation, baseArgs: string[]): Promise<void> {
  const fewer = expectation.failedProperty
    ? ['--property', expectation.failedProperty]
    : baseArgs.includes('--max-examples')
      ? []
      : ['--max-examples', '4', '--property-time-limit', 'PT5S'];
  const run = await runCli(
    [...baseArgs, ...fewer, '--change-set', 'fixtures/change-sets/postgres.json', '--transcript', transcriptFileFor(expectation)],
    { withReport: false },
  );
  if (run.exitCode !== expectation.exitCode) throw new Error(`recording ${expectation.name} exited ${run.exitCode}: ${run.stderr}`);
  // Bundled files are named by absolute path; a committed recording names them from the package root.
  const file = transcriptFileFor(expectation);
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(`${ROOT}/`, ''));
}

/** Where the transcript of a run against one of the situation mutants is kept. */
export function situationTranscriptFile(name: string): string {
  return join(TRANSCRIPT_FOLDER, 'situations', `${name.replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '')}.json`);
}
