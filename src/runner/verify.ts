import type { RuleSelection } from '../rules/index.js';
import { ConfigError, KitError, unreadableFile } from '../errors.js';
import type { JudgeContext } from '../core/judge-context.js';
import { NotATranscriptError, readTranscriptFile } from '../transcript/transcript-file.js';
import { TranscriptSyntaxError } from '../transcript/transcript-scanner.js';
import type { Transcript } from '../transcript/transcript.js';
import { judgeRun } from './judge-run.js';
import { durationOfMs } from '../core/duration.js';
import type { RunOutcome } from './outcome.js';

/**
 * Judges a transcript written by `run --transcript` again, offline: no request is sent. With `showSecrets` the
 * outcome's exchanges are shown as recorded; else credential headers and secret-looking values are redacted.
 * The file is read as a stream; its exchanges are judged together, as the run judged them.
 */
export async function verifyTranscript(path: string, selection: RuleSelection, options: { showSecrets?: boolean } = {}): Promise<RunOutcome> {
  return judgeReadTranscript(await readingTranscript(path, () => readTranscriptFile(path)), path, selection, options);
}

/** A whole transcript, read back, judged again as the run that wrote it judged it. */
export function judgeReadTranscript(
  { transcript, context }: { transcript: Transcript; context: JudgeContext },
  path: string,
  selection: RuleSelection,
  options: { showSecrets?: boolean } = {},
): RunOutcome {
  const first = transcript.exchanges[0];
  const url = first ? new URL(first.request.url).origin : '(no exchange recorded)';
  let finishedAt = context.startedAt;
  for (const exchange of transcript.exchanges) finishedAt = Math.max(finishedAt, exchange.endedAt);
  return judgeRun({
    url,
    startedAt: context.startedAt,
    finishedAt,
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

/**
 * Reads a transcript file through `read`; a file that cannot be read, is not JSON (said with its line and
 * column, never its text: a parser's own message quotes it, secrets and all) or is no transcript is a config
 * error naming it, never a crash.
 */
export async function readingTranscript<T>(path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof TranscriptSyntaxError) throw new ConfigError('transcript', `cannot read ${path}: it is not JSON: ${error.message}`);
    if (error instanceof NotATranscriptError) throw new ConfigError('transcript', error.message);
    // The system's refusal to read the file (missing, a folder, no permission); anything else is the kit's own.
    if (!(error instanceof KitError) && typeof (error as NodeJS.ErrnoException | undefined)?.errno === 'number') {
      throw unreadableFile('transcript', path, error);
    }
    throw error;
  }
}
