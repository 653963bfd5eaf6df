import { resolveObserveConfig, type ObserveFlags } from '../config/observe-config.js';
import type { ExitCode } from '../core/verdict.js';
import { observeOnConsole as observeOnTerminal } from '../kit/observe.js';
import type { ObservationProgress, ObserveEvent } from '../observe/observation-news.js';
import { startObservation } from '../observe/observe.js';
import type { JsonReport } from '../report/json-report.js';
import { SecretMask } from '../report/secret-mask.js';
import type { RunOutcome } from '../runner/outcome.js';
import { maskedReport } from './masked-report.js';
import type { CommandLineCall } from './options.js';

export type { ObservationProgress, ObserveEvent } from '../observe/observation-news.js';
export type { RuleBreak } from '../observe/rule-breaks.js';
export type { UpstreamChange } from '../observe/upstream-watch.js';
export type { JudgedOperations } from '../observe/judged-progress.js';
export type { Observation, RuleCount, TrafficSeen } from '../core/observation.js';

/**
 * The options of `startObserver`: the observe command's long option names in camelCase, with the same meaning
 * and defaults (see `provisioner-conformance observe --help`), plus `signal` to stop it.
 */
export interface ObserverOptions extends Omit<ObserveFlags, 'upstream'> {
  /** The provisioner's base URL: every request goes on to it unchanged. */
  upstream: string;
  /** `HOST:PORT` to listen on (default `127.0.0.1:0`, a free port: read `url`). */
  listen?: string;
  /** Stops the observer, as `stop()` does. */
  signal?: AbortSignal;
  /**
   * Hears, masked as the reports are, what the command prints as it runs: the first break of each rule (later
   * ones are counted in `progress().broken`), and the provisioner stopping and starting again to answer.
   * Whatever it does or throws never touches the traffic or the judges.
   */
  onEvent?: (event: ObserveEvent) => void;
}

/** A running observer: the URL the control plane should call, its report so far, and its end. */
export interface Observer {
  url: string;
  /** The report of what was judged so far (operations still open are not in it yet), once the judges took the exchanges handed to them before the call (each just after its answer was sent). */
  report(): Promise<JsonReport>;
  /** Stops taking traffic, judges the operations still open on what was seen, writes the reports asked for, and resolves with the report; rejects with an `OutputError` for a report it could not write. */
  stop(): Promise<JsonReport>;
  /** Resolves with the report once the observer ended: stopped, signalled, or its `duration` over. */
  finished: Promise<JsonReport>;
  /** The counts so far (exchanges, operations, rules broken, whether the provisioner answers), at once. */
  progress(): ObservationProgress;
}

/**
 * Starts an observer in code: a reverse proxy in front of `upstream` whose traffic is judged as it flows, as
 * `provisioner-conformance observe` does, without printing anything. Rejects with a `KitError` for bad options.
 */
export async function startObserver(options: ObserverOptions): Promise<Observer> {
  const { signal, onEvent, ...flags } = options;
  const config = await resolveObserveConfig(flags);
  const running = await startObservation(config, { ...(signal && { signal }), ...(onEvent && { onEvent }) });
  const reportOf = (outcome: RunOutcome): JsonReport => {
    if (config.showSecrets) return maskedReport(outcome, SecretMask.none());
    const mask = new SecretMask().addUrl(config.upstream).learnExchanges(outcome.transcript.exchanges);
    for (const secret of config.secrets) mask.add(secret);
    return maskedReport(outcome, mask);
  };
  // The end's outputs were all tried; one that could not be written is the caller's to know, as for a run.
  const endReport = (outcome: RunOutcome): JsonReport => {
    const [missing] = running.missingOutputs();
    if (missing) throw missing.error;
    return reportOf(outcome);
  };
  const finished = running.finished.then(endReport);
  // A caller who never awaits `finished` is not told of its failure as an unhandled rejection; stop() still rejects.
  finished.catch(() => undefined);
  return {
    url: running.url,
    report: async () => reportOf(await running.outcome()),
    stop: async () => endReport(await running.stop()),
    finished,
    progress: () => running.progress(),
  };
}

/**
 * `provisioner-conformance observe` on the terminal: resolves the flags over the config file (given, or found in
 * `call.cwd`), observes until SIGINT, SIGTERM or `duration` with the live lines on stderr, prints the summary and
 * resolves to the exit code. A rejection is the caller's to mask and print.
 */
export async function observeOnConsole(flags: ObserveFlags, call: Pick<CommandLineCall, 'env' | 'cwd'>): Promise<ExitCode> {
  const config = await resolveObserveConfig(flags, { env: call.env, cwd: call.cwd });
  return (await observeOnTerminal(config, {})).exitCode;
}
