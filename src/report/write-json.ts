import type { RunOutcome } from '../runner/outcome.js';
import { buildJsonReportWith, exchangesOnDemand } from './json-report.js';
import { StreamedList, writeJsonFile } from '../transcript/json-chunks.js';

/**
 * Writes the JSON report of a run to `path`, pretty-printed with a trailing newline, creating its directory.
 * Streamed: each exchange shown as evidence is made and written in turn, so a rule with tens of thousands of
 * pieces of evidence never has them, nor the report's text, in memory at once.
 */
export async function writeJsonReport(path: string, outcome: RunOutcome): Promise<void> {
  const report = buildJsonReportWith(outcome, exchangesOnDemand((items) => new StreamedList(items)));
  await writeJsonFile(path, report, '  ');
}
