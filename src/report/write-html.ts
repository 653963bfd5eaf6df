import type { RunOutcome } from '../runner/outcome.js';
import { buildJsonReport } from './json-report.js';
import { htmlReportPieces, renderHtmlReport } from './html/page.js';
import { buildTimeline, type Timeline } from './html/timeline.js';
import type { SecretMask } from './secret-mask.js';
import { writeTextFile } from '../transcript/json-chunks.js';

/** The HTML report of a run: the JSON report's content and the operations timeline. */
export function htmlReportFor(outcome: RunOutcome): string {
  return renderHtmlReport(buildJsonReport(outcome), timelineOf(outcome));
}

/** The HTML report's text, secrets masked in their HTML-escaped form. */
export function htmlReportText(outcome: RunOutcome, mask: SecretMask): string {
  return mask.html(htmlReportFor(outcome));
}

/**
 * Writes the HTML report of a run to `path` (the text {@link htmlReportText} makes), creating its directory. Made and
 * masked piece by piece as it is written: a long run's page, and its masked copy, are never one string.
 */
export async function writeHtmlReport(path: string, outcome: RunOutcome, mask: SecretMask): Promise<void> {
  await writeTextFile(path, htmlReportPieces(buildJsonReport(outcome), timelineOf(outcome)), (piece) => mask.html(piece));
}

function timelineOf(outcome: RunOutcome): Timeline {
  return buildTimeline(outcome.transcript, outcome.settings.maxOperationDuration.ms);
}
