import type { RunOutcome } from '../runner/outcome.js';
import { buildJsonReport, buildJsonReportWith, exchangesOnDemand } from './json-report.js';
import { StreamedList, writeJsonFile } from '../transcript/json-chunks.js';
import type { SecretMask } from './secret-mask.js';

/** The JSON report's text: pretty-printed with a trailing newline, secrets masked inside its strings. */
export function jsonReportText(outcome: RunOutcome, mask: SecretMask): string {
  return mask.json(`${JSON.stringify(buildJsonReport(outcome), null, 2)}\n`);
}

/**
 * Writes the JSON report of a run to `path`, pretty-printed with a trailing newline, creating its directory.
 * Streamed: each exchange shown as evidence is made and written in turn, so a rule with tens of thousands of
 * pieces of evidence never has them, nor the report's text, in memory at once. Each piece is a whole JSON
 * token, so the mask sees every string whole.
 */
export async function writeJsonReport(path: string, outcome: RunOutcome, mask: SecretMask): Promise<void> {
  const report = buildJsonReportWith(outcome, exchangesOnDemand((items) => new StreamedList(items)));
  await writeJsonFile(path, report, '  ', (chunk) => mask.json(chunk));
}
