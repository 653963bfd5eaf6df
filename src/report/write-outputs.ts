import { REDACTED } from '../core/redact.js';
import { writeBundle } from './bundle.js';
import { writeHtmlReport } from './write-html.js';
import { writeJsonReport } from './write-json.js';
import { writeJunitReport } from './write-junit.js';
import { writeTranscript } from './write-transcript.js';
import type { SecretMask } from './secret-mask.js';
import type { RunOutcome } from '../runner/outcome.js';
import { OUTPUT_KINDS, type RunOutputs } from '../config/output-paths.js';
import { environmentCause, OutputError } from '../errors.js';
import { COLLECTOR_PACING } from '../client/collector-pacing.js';

/** An output that could not be written: which one, and the one-line error that says why. */
export interface MissingOutput {
  kind: keyof RunOutputs;
  /** What it is and where, for the verdict line: `the JSON report /dev/full`. */
  description: string;
  error: OutputError;
}

export interface OutputContext {
  /** The mask of what the run shows (lifted by --show-secrets). */
  shown: SecretMask;
  /** The run's secrets: a bundle always hides them. */
  secrets: SecretMask;
  /** The names of the run's extra headers: a bundle's settings list them, their values removed. */
  headerNames: readonly string[];
}

/**
 * Writes every output the run was asked for. One that cannot be written (a full disk, a folder taken away
 * since the run started) does not stop the others: it is returned, named, for the user to see.
 * A failure that is not the environment's is a bug in the kit, and thrown.
 */
export async function writeOutputs(outputs: RunOutputs, outcome: RunOutcome, masks: OutputContext): Promise<MissingOutput[]> {
  const writers: Record<keyof RunOutputs, (path: string) => Promise<unknown>> = {
    report: (path) => writeJsonReport(path, outcome, masks.shown),
    junit: (path) => writeJunitReport(path, outcome, masks.shown),
    html: (path) => writeHtmlReport(path, outcome, masks.shown),
    bundle: (path) => writeBundle(path, { outcome, settings: bundleSettings(outcome, masks.headerNames), mask: masks.secrets }),
    transcript: (path) => writeTranscript(path, outcome, masks.shown),
  };
  const missing: MissingOutput[] = [];
  for (const kind of Object.keys(OUTPUT_KINDS) as Array<keyof RunOutputs>) {
    const path = outputs[kind];
    if (path === undefined) continue;
    // The run's garbage, then each output's, is collected before the next output is made: a run's peak memory
    // is often its last moment, every output's copies on top of each other.
    COLLECTOR_PACING.collectNow();
    try {
      await writers[kind](path);
    } catch (error) {
      if (environmentCause(error) === undefined) throw error;
      missing.push({ kind, description: `${OUTPUT_KINDS[kind].what} ${path}`, error: new OutputError(OUTPUT_KINDS[kind].flag, path, error) });
    }
  }
  return missing;
}

/** The settings a bundle records: what the run resolved, with every header value removed. */
function bundleSettings(outcome: RunOutcome, headerNames: readonly string[]): Record<string, unknown> {
  return {
    url: outcome.target.url,
    ...outcome.settings,
    showSecrets: false,
    headers: Object.fromEntries(headerNames.map((name) => [name, REDACTED])),
  };
}
