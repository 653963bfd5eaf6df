import { renderSummary } from '../report/console.js';
import type { SecretMask } from '../report/secret-mask.js';
import type { ProgressStream } from '../report/progress.js';
import { shouldUseColor } from '../report/style.js';
import type { MissingOutput } from '../report/write-outputs.js';
import type { RunOutcome } from '../runner/outcome.js';

/** Where the end of a command is printed, and the command line its replay lines repeat. */
export interface CommandEndStreams {
  stdout: ProgressStream;
  stderr: ProgressStream;
  invocation?: readonly string[];
}

/**
 * The end of `run`, `observe` and `verify` on a terminal, alike: each output that could not be written named
 * on stderr, then the summary on stdout, whose verdict line names them again; everything through the mask.
 */
export function printCommandEnd(outcome: RunOutcome, missingOutputs: readonly MissingOutput[], shown: SecretMask, streams: CommandEndStreams): void {
  for (const missing of missingOutputs) streams.stderr.write(`${shown.text(`provisioner-conformance: ${missing.error.message} [${missing.error.code}]`)}\n`);
  const color = shouldUseColor(streams.stdout, process.env);
  const missing = missingOutputs.map((output) => output.description);
  // On a terminal the summary is wrapped to its width; in a file or a pipe its lines stay whole.
  const columns = streams.stdout.isTTY === true ? streams.stdout.columns : undefined;
  streams.stdout.write(shown.text(renderSummary(outcome, { color, ...(streams.invocation && { invocation: streams.invocation }), missingOutputs: missing, ...(columns !== undefined && { columns }) })));
}
