import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Expectation } from '../e2e/expectations.js';
import { ROOT, runCli } from '../e2e/run-cli.js';

/** Where recorded transcripts live: the kit against the reference provisioner, correct and with each fault. */
export const TRANSCRIPT_FOLDER = join(ROOT, 'fixtures', 'transcripts');

export function transcriptFileFor(expectation: Expectation): string {
  return join(TRANSCRIPT_FOLDER, `${expectation.name.replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '')}.json`);
}

/** Records one transcript with the real CLI, with one change set so the file stays small. */
export async function recordTranscript(expectation: Expectation, baseArgs: string[]): Promise<void> {
  const run = await runCli(
    [...baseArgs, '--change-set', 'fixtures/change-sets/postgres.json', '--transcript', transcriptFileFor(expectation)],
    { withReport: false },
  );
  if (run.exitCode !== expectation.exitCode) throw new Error(`recording ${expectation.name} exited ${run.exitCode}: ${run.stderr}`);
  // Bundled files are named by absolute path; a committed recording names them from the package root.
  const file = transcriptFileFor(expectation);
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(`${ROOT}/`, ''));
}
