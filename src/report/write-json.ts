import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunOutcome } from '../runner/outcome.js';
import { buildJsonReport } from './json-report.js';
import type { SecretMask } from './secret-mask.js';

/** The JSON report's text: pretty-printed with a trailing newline, secrets masked inside its strings. */
export function jsonReportText(outcome: RunOutcome, mask: SecretMask): string {
  return mask.json(`${JSON.stringify(buildJsonReport(outcome), null, 2)}\n`);
}

/** Writes the JSON report of a run to `path`, creating its directory. */
export async function writeJsonReport(path: string, outcome: RunOutcome, mask: SecretMask): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, jsonReportText(outcome, mask), 'utf8');
}
