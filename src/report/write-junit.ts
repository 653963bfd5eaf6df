import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunOutcome } from '../runner/outcome.js';
import { renderJunit } from './junit.js';

/** Writes the run as JUnit XML, creating parent folders. */
export async function writeJunitReport(path: string, outcome: RunOutcome): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, renderJunit(outcome));
}
