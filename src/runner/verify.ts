import type { RuleSelection } from '../rules/index.js';
import { readTranscriptFile } from '../transcript/transcript-file.js';
import { concludeRun } from './conclude.js';
import { durationOfMs } from '../core/duration.js';
import type { RunOutcome } from './outcome.js';

/**
 * Judges a transcript written by `run --transcript` again, offline: no request is sent. With `showSecrets` the
 * outcome's exchanges are shown as recorded; else credential headers and secret-looking values are redacted.
 */
export async function verifyTranscript(path: string, selection: RuleSelection, options: { showSecrets?: boolean } = {}): Promise<RunOutcome> {
  const { transcript, context } = await readTranscriptFile(path);
  const first = transcript.exchanges[0];
  const url = first ? new URL(first.request.url).origin : '(no exchange recorded)';
  return concludeRun({
    url,
    startedAt: context.startedAt,
    finishedAt: Math.max(context.startedAt, ...transcript.exchanges.map((exchange) => exchange.endedAt)),
    transcript,
    context,
    selection,
    interrupted: false,
    notes: [`judged again offline from ${path}`],
    operations: [],
    properties: [],
    settings: {
      pollInterval: durationOfMs(context.pollIntervalMs),
      answerTimeout: durationOfMs(context.answerTimeoutMs),
      maxOperationDuration: context.maxOperationDuration,
      changesPointer: '',
      planOnly: context.planOnly,
      strict: selection.strict ?? false,
      showSecrets: options.showSecrets ?? false,
      changeSets: context.changeSets.map((changeSet) => changeSet.file ?? changeSet.name),
    },
  });
}
