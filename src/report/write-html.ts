import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunOutcome } from '../runner/outcome.js';
import { buildJsonReport } from './json-report.js';
import { renderHtmlReport } from './html/page.js';
import { buildTimeline } from './html/timeline.js';
import type { SecretMask } from './secret-mask.js';

/** The HTML report of a run: the JSON report's content and the operations timeline. */
export function htmlReportFor(outcome: RunOutcome): string {
  return renderHtmlReport(buildJsonReport(outcome), buildTimeline(outcome.transcript, outcome.settings.maxOperationDuration.ms));
}

/** The HTML report's text, secrets masked in their HTML-escaped form. */
export function htmlReportText(outcome: RunOutcome, mask: SecretMask): string {
  return mask.html(htmlReportFor(outcome));
}

/** Writes the HTML report of a run to `path`, creating its directory. */
export async function writeHtmlReport(path: string, outcome: RunOutcome, mask: SecretMask): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, htmlReportText(outcome, mask), 'utf8');
}
