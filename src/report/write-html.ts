import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunOutcome } from '../runner/outcome.js';
import { buildJsonReport } from './json-report.js';
import { renderHtmlReport } from './html/page.js';
import { buildTimeline } from './html/timeline.js';

/** The HTML report of a run: the JSON report's content (secrets already masked) and the operations timeline. */
export function htmlReportFor(outcome: RunOutcome): string {
  return renderHtmlReport(buildJsonReport(outcome), buildTimeline(outcome.transcript, outcome.settings.maxOperationDuration.ms));
}

/** Writes the HTML report of a run to `path`, creating its directory. */
export async function writeHtmlReport(path: string, outcome: RunOutcome): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, htmlReportFor(outcome), 'utf8');
}
