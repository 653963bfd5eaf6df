import { resolveRunConfig } from '../config/run-config.js';
import { run } from '../kit/run.js';
import { librarySecrets, maskedError } from './library-secrets.js';
import { maskedReport, type Report } from './masked-report.js';
import type { ConformanceOptions } from './options.js';

export type { Report } from './masked-report.js';

/**
 * Plays the control plane against a provisioner and judges it, as `provisioner-conformance run` does, without
 * printing anything. Resolves to the report whatever the verdict; rejects with a `KitError` for bad options
 * (an option the run does not know is one of them, named) and for an output it could not write.
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<Report> {
  const { signal, ...runOptions } = options;
  try {
    const config = await resolveRunConfig({ options: runOptions, env: process.env, cwd: process.cwd() });
    const result = await run(config, { console: false, ...(signal && { signal }) });
    // Outputs were all tried; one that could not be written is the caller's to know, as the CLI's exit code says.
    const missing = result.missingOutputs[0];
    if (missing) throw missing.error;
    return maskedReport(result.outcome, result.shown);
  } catch (error) {
    // A rejection is printed by the caller: it passes the same mask as the CLI's error messages.
    throw maskedError(error, librarySecrets(runOptions, process.env, process.cwd()));
  }
}
