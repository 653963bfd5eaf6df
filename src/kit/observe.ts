import type { ObserveConfig } from '../config/observe-config.js';
import type { ExitCode } from '../core/verdict.js';
import { createObserveConsole } from '../observe/observe-console.js';
import { knownSecrets, startObservation, type RunningObservation } from '../observe/observe.js';
import { SecretMask } from '../report/secret-mask.js';
import { shouldUseColor } from '../report/style.js';
import { exitCodeAfterOutputs, type MissingOutput } from '../report/write-outputs.js';
import type { RunOutcome } from '../runner/outcome.js';
import { printCommandEnd } from './command-end.js';
import type { KitIo } from './io.js';

/** What an observation ended with: its outcome, the outputs it could not write, and the exit code that tells both. */
export interface ObservationResult {
  outcome: RunOutcome;
  missingOutputs: readonly MissingOutput[];
  exitCode: ExitCode;
}

/**
 * Observes on a terminal until SIGINT, SIGTERM, `io.signal` or the configuration's duration: lines and events
 * above a live line on a terminal (timestamped lines with summaries in a log), then the summary, as `run` ends.
 */
export async function observeOnConsole(config: ObserveConfig, io: Omit<KitIo, 'console'>): Promise<ObservationResult> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const signal = io.signal ? AbortSignal.any([stop.signal, io.signal]) : stop.signal;
  const mask = config.showSecrets ? SecretMask.none() : knownSecrets(config);
  let running: RunningObservation | undefined;
  const printer = createObserveConsole(stderr, { color: shouldUseColor(stderr, process.env), mask, progress: () => running?.progress() });
  try {
    running = await startObservation(config, { signal, log: (line) => printer.message(line), onEvent: (event) => printer.event(event) });
    const outcome = await running.finished;
    printer.stop();
    const shown = config.showSecrets ? SecretMask.none() : mask.learnExchanges(outcome.transcript.exchanges);
    const missingOutputs = running.missingOutputs();
    printCommandEnd(outcome, missingOutputs, shown, { stdout, stderr });
    return { outcome, missingOutputs, exitCode: exitCodeAfterOutputs(outcome, missingOutputs) };
  } finally {
    printer.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
