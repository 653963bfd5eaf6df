import yargs from 'yargs';
import type { CommandResult } from '../cli/command-result.js';
import { runCommand, type RunArgs } from '../cli/run.js';
import { executeRun } from '../cli/execute-run.js';
import { UsageError } from '../errors.js';
import { buildJsonReport, type JsonReport } from '../report/json-report.js';
import { SecretMask } from '../report/secret-mask.js';
import { parseHeaders } from '../config/headers.js';
import { optionsToArgs, type ConformanceOptions } from './options.js';
import { invocationSecrets, maskedError } from '../cli/invocation-secrets.js';

/** What a run found, with the shape of the JSON report (`schemas/report.schema.json`). */
export type Report = JsonReport;

/**
 * Plays the control plane against a provisioner and judges it, as `provisioner-conformance run` does, without
 * printing anything. Resolves to the report whatever the verdict; rejects with a `KitError` for bad options.
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<Report> {
  const args = optionsToArgs(options);
  try {
    return await conform(args, options.signal);
  } catch (error) {
    // A rejection is printed by the caller: it passes the same mask as the CLI's error messages.
    throw maskedError(error, invocationSecrets(['run', ...args], process.env, process.cwd()));
  }
}

async function conform(args: string[], stop: AbortSignal | undefined): Promise<Report> {
  const result: CommandResult = { exitCode: 0 };
  const command = runCommand(result, args);
  let parsed: RunArgs | undefined;
  await yargs(['run', ...args])
    .command({ ...command, handler: (argv) => void (parsed = argv) })
    .strict()
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      throw new UsageError('usage', message);
    })
    .parseAsync();
  if (!parsed) throw new UsageError('usage', 'the options did not make a run');
  const outcome = await executeRun(parsed, { console: false, ...(stop && { signal: stop }) });
  const report = buildJsonReport(outcome);
  if (parsed.showSecrets) return report;
  // The report leaves the kit as a value, not a file: it passes the same mask as everything the CLI writes.
  const mask = new SecretMask().addHeaders(parseHeaders(parsed.header ?? [])).addUrl(outcome.target.url).learnExchanges(outcome.transcript.exchanges);
  return JSON.parse(mask.json(JSON.stringify(report))) as Report;
}
