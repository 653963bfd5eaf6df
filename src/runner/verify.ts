import type { RuleSelection } from '../rules/index.js';
import { readFile } from 'node:fs/promises';
import { jsonSyntaxError } from '../core/json.js';
import { ConfigError, environmentCause, messageOf } from '../errors.js';
import { parseTranscriptFile } from '../transcript/transcript-file.js';
import { concludeRun } from './conclude.js';
import { durationOfMs } from '../core/duration.js';
import type { RunOutcome } from './outcome.js';

/**
 * Judges a transcript written by `run --transcript` again, offline: no request is sent. With `showSecrets` the
 * outcome's exchanges are shown as recorded; else credential headers and secret-looking values are redacted.
 */
export async function verifyTranscript(path: string, selection: RuleSelection, options: { showSecrets?: boolean } = {}): Promise<RunOutcome> {
  const { transcript, context } = await readTranscript(path);
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

/** A transcript file read back; a file that cannot be read or is no transcript is a config error naming it, never a crash. */
async function readTranscript(path: string): Promise<ReturnType<typeof parseTranscriptFile>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError('transcript', `cannot read ${path}: ${environmentCause(error) ?? messageOf(error)}`);
  }
  try {
    return parseTranscriptFile(text, path);
  } catch (error) {
    // Not the parser's own message alone: V8's quotes the start of the file, secrets and all.
    throw new ConfigError('transcript', `cannot read ${path}: ${error instanceof SyntaxError ? `it is not JSON: ${jsonSyntaxError(text, error)}` : messageOf(error)}`);
  }
}
