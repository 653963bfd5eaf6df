import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunOutcome } from '../runner/outcome.js';
import { renderJunit } from './junit.js';
import type { SecretMask } from './secret-mask.js';

/** The JUnit XML of a run, secrets masked in their XML-escaped form. */
export function junitText(outcome: RunOutcome, mask: SecretMask): string {
  return mask.xml(renderJunit(outcome));
}

/** Writes the run as JUnit XML, creating parent folders. */
export async function writeJunitReport(path: string, outcome: RunOutcome, mask: SecretMask): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, junitText(outcome, mask));
}
