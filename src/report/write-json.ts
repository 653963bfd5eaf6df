import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunOutcome } from '../runner/outcome.js';
import { buildJsonReport } from './json-report.js';

/** Writes the JSON report of a run to `path`, pretty-printed with a trailing newline, creating its directory. */
export async function writeJsonReport(path: string, outcome: RunOutcome): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(buildJsonReport(outcome), null, 2)}\n`, 'utf8');
}
