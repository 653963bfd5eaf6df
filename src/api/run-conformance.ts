import { resolveRunConfig } from '../config/run-config.js';
import type { FaultNeedsApplied } from '../config/reference-fault-needs.js';
import type { RunOptions } from '../config/run-options.js';
import type { ExitCode } from '../core/verdict.js';
import { run } from '../kit/run.js';
import { librarySecrets, maskedError } from './library-secrets.js';
import { maskedReport, type Report } from './masked-report.js';
import type { CommandLineCall, ConformanceOptions } from './options.js';

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

/**
 * `provisioner-conformance run` on the terminal: fills in what `--reference-fault` needs (and says so once the
 * options resolved), resolves them as `runConformance` does, shows the run's progress and summary, and
 * resolves to its exit code. SIGINT and SIGTERM stop the run; a rejection is the caller's to mask and print.
 */
export async function runOnConsole(given: RunOptions, call: CommandLineCall): Promise<ExitCode> {
  const { options, line } = await withFaultNeeds(given);
  const config = await resolveRunConfig({ options, env: call.env, cwd: call.cwd });
  if (line !== undefined) process.stderr.write(`${line}\n`);
  return (await run(config, { console: true, invocation: call.invocation })).exitCode;
}

/** What `--reference-fault` needs, filled in; the reference's faults load only for a run that names one. */
async function withFaultNeeds(given: RunOptions): Promise<FaultNeedsApplied> {
  if (given.referenceFault === undefined) return { options: given };
  const { applyFaultNeeds } = await import('../config/reference-fault-needs.js');
  return applyFaultNeeds(given);
}
