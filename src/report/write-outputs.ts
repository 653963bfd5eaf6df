import { writeAtomically } from './atomic-file.js';
import { writeBundle } from './bundle.js';
import { OUTPUT_MISSING_EXIT_CODE } from './console.js';
import { writeHtmlReport } from './write-html.js';
import { writeJsonReport } from './write-json.js';
import { writeJunitReport } from './write-junit.js';
import { writeTranscript } from './write-transcript.js';
import type { SecretMask } from './secret-mask.js';
import type { RunOutcome } from '../runner/outcome.js';
import type { ExitCode } from '../core/verdict.js';
import { OUTPUT_KINDS, type CommandOutputs } from '../config/output-paths.js';
import { environmentCause, OutputError } from '../errors.js';
import { COLLECTION_SCHEDULE } from '../client/collection-schedule.js';

/** An output that could not be written: which one, and the one-line error that says why. */
export interface MissingOutput {
  kind: keyof CommandOutputs;
  /** What it is and where, for the verdict line: `the JSON report /dev/full`. */
  description: string;
  error: OutputError;
}

export interface OutputContext {
  /** The mask of what the command shows (lifted by --show-secrets). */
  shown: SecretMask;
  /** The command's secrets: a bundle always hides them. */
  secrets: SecretMask;
  /** What a bundle records as the command's settings, secrets already removed. */
  bundleSettings: Record<string, unknown>;
}

/**
 * The one writer of what `run`, `observe` and `verify` were asked to write (paths checked when the command was
 * resolved): each file atomically, a bundle file by file with its manifest last. One that cannot be written
 * (a full disk, a folder taken away since the command started) does not stop the others: it is returned,
 * named, for the command to tell at its end with {@link exitCodeAfterOutputs}. A failure that is not the
 * environment's is a bug in the kit, and thrown.
 */
export async function writeOutputs(outputs: CommandOutputs, outcome: RunOutcome, context: OutputContext): Promise<MissingOutput[]> {
  const writers: Record<keyof CommandOutputs, (path: string) => Promise<unknown>> = {
    report: (path) => writeAtomically(path, (target) => writeJsonReport(target, outcome, context.shown)),
    junit: (path) => writeAtomically(path, (target) => writeJunitReport(target, outcome, context.shown)),
    html: (path) => writeAtomically(path, (target) => writeHtmlReport(target, outcome, context.shown)),
    bundle: (path) => writeBundle(path, { outcome, settings: context.bundleSettings, mask: context.secrets }),
    transcript: (path) => writeAtomically(path, (target) => writeTranscript(target, outcome, context.shown)),
  };
  const missing: MissingOutput[] = [];
  for (const kind of Object.keys(OUTPUT_KINDS) as Array<keyof CommandOutputs>) {
    const path = outputs[kind];
    if (path === undefined) continue;
    // The command's garbage, then each output's, is collected before the next output is made: a run's peak
    // memory is often its last moment, every output's copies on top of each other.
    COLLECTION_SCHEDULE.collectNow();
    try {
      await writers[kind](path);
    } catch (error) {
      if (environmentCause(error) === undefined) throw error;
      missing.push({ kind, description: `${OUTPUT_KINDS[kind].what} ${path}`, error: new OutputError(OUTPUT_KINDS[kind].flag, path, error) });
    }
  }
  return missing;
}

/** The exit code of a command that wrote its outputs: its outcome's, or the one that says an output asked for is missing. */
export function exitCodeAfterOutputs(outcome: RunOutcome, missing: readonly MissingOutput[]): ExitCode {
  return missing.length > 0 ? OUTPUT_MISSING_EXIT_CODE : outcome.exitCode;
}
