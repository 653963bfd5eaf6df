import type { RecordingConfig, VerifyConfig } from '../config/verify-config.js';
import type { ExitCode } from '../core/verdict.js';
import { changeSetRecorder } from '../observe/change-set-files.js';
import { verifyHar } from '../observe/verify-har.js';
import { verifyTranscriptFile } from '../observe/verify-transcript.js';
import { bundleCheckText } from '../report/bundle-check-text.js';
import { SecretMask } from '../report/secret-mask.js';
import { exitCodeAfterOutputs, writeOutputs, type MissingOutput } from '../report/write-outputs.js';
import type { RunOutcome } from '../runner/outcome.js';
import { verifyBundle, type BundleCheck } from '../runner/verify-bundle.js';
import type { Exchange } from '../transcript/exchange.js';
import { printCommandEnd } from './command-end.js';
import type { KitIo } from './io.js';

/** A recording judged again: its outcome, the outputs it could not write, the exit code that tells both, and its mask. */
export interface JudgedRecording {
  kind: 'judged';
  outcome: RunOutcome;
  exitCode: ExitCode;
  missingOutputs: MissingOutput[];
  shown: SecretMask;
}

/** What verify found: a recording judged again, or a bundle checked. */
export type VerifyResult = JudgedRecording | { kind: 'bundle'; check: BundleCheck; exitCode: ExitCode; shown: SecretMask };

/** Judges a transcript or a HAR file again, or checks a bundle, as the configuration says. */
export async function verify(config: VerifyConfig, io: KitIo): Promise<VerifyResult> {
  if (config.kind !== 'bundle') return judgeRecording(config, io);
  const check = await verifyBundle(config.dir);
  const shown = printedMask(config, check.exchanges);
  if (io.console) (io.stdout ?? process.stdout).write(shown.text(bundleCheckText(config.dir, check)));
  return { kind: 'bundle', check, exitCode: check.problems.length === 0 ? 0 : 1, shown };
}

/**
 * Judges a transcript or a HAR file again and writes the reports asked for, as `run` writes them; with
 * `io.console`, prints the summary through the mask, each report it could not write named.
 */
export async function judgeRecording(config: RecordingConfig, io: KitIo): Promise<JudgedRecording> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  let recordFailure: unknown;
  const outcome =
    config.kind === 'har'
      ? await verifyHar(config.file, {
          ...config.judging,
          ...(config.recordChangeSets !== undefined && { onChangeSet: changeSetRecorder(config.recordChangeSets, (error) => (recordFailure ??= error)) }),
        })
      : await verifyTranscriptFile(config.file, config.selection, { showSecrets: config.showSecrets });
  const shown = printedMask(config, outcome.transcript.exchanges);
  // No bundle here: the masks and settings a bundle would record are not needed.
  const missingOutputs = await writeOutputs(config.outputs, outcome, { shown, secrets: shown, bundleSettings: {} });
  if (io.console) {
    printCommandEnd(outcome, missingOutputs, shown, { stdout, stderr, ...(io.invocation && { invocation: io.invocation }) });
    if (recordFailure !== undefined) stderr.write(shown.text(`verify: a change set could not be kept: ${recordFailure instanceof Error ? recordFailure.message : String(recordFailure)}\n`));
  }
  return { kind: 'judged', outcome, exitCode: exitCodeAfterOutputs(outcome, missingOutputs), missingOutputs, shown };
}

/**
 * What verify shows passes the run's mask, learnt from the recording itself: a transcript written with
 * --show-secrets holds the run's header values in its requests (every header the kit does not set itself is
 * the user's, as --header gave it), values under secret-looking keys and credential headers in its bodies and
 * answers, and passwords in URLs; a HAR file's registration document its own. --secret adds values the
 * recording cannot show to be secret; --show-secrets lifts the mask.
 */
function printedMask(config: VerifyConfig, exchanges: readonly Exchange[]): SecretMask {
  if (config.showSecrets) return SecretMask.none();
  const mask = new SecretMask().learnExchanges(exchanges);
  // A HAR file's requests are the control plane's own, not a run's with the user's headers.
  if (config.kind !== 'har') mask.learnRequestHeaders(exchanges);
  if (config.kind === 'har' && config.registration?.json.ok) mask.learnJson(config.registration.json.value);
  for (const secret of config.secrets) mask.add(secret);
  return mask;
}
