import type { RunOutcome } from '../runner/outcome.js';
import { transcriptFileText, writeTranscriptFile } from '../transcript/transcript-file.js';
import { numberedMask } from '../core/redact.js';
import { redactedEach, redactExchanges } from './redact-transcript.js';
import type { SecretMask } from './secret-mask.js';

/**
 * The transcript file's text with secrets hidden: values under secret-looking keys by structure, then every
 * known secret anywhere in the text. One numbering serves both, so each distinct secret keeps its own
 * placeholder and the transcript judged again reaches the same verdicts. The mask of
 * `--show-secrets` keeps everything.
 */
export function transcriptText(outcome: RunOutcome, mask: SecretMask): string {
  const { exchanges, events } = outcome.transcript;
  if (mask.showsSecrets) return transcriptFileText(exchanges, events, outcome.context);
  const numbers = numberedMask();
  return mask.withPlaceholder(numbers).json(transcriptFileText(redactExchanges(exchanges, numbers), events, outcome.context));
}

/** Writes the transcript file as {@link transcriptText} makes it, streamed piece by piece (each piece a whole JSON token). */
export async function writeTranscript(path: string, outcome: RunOutcome, mask: SecretMask): Promise<void> {
  const { exchanges, events } = outcome.transcript;
  if (mask.showsSecrets) return writeTranscriptFile(path, exchanges, events, outcome.context);
  const numbers = numberedMask();
  const masked = mask.withPlaceholder(numbers);
  await writeTranscriptFile(path, redactedEach(exchanges, numbers), events, outcome.context, (chunk) => masked.json(chunk));
}
