import { resolveObserveConfig, type ObserveFlags } from '../observe/config.js';
import type { ObservationProgress, ObserveEvent } from '../observe/observation-news.js';
import { startObservation } from '../observe/observe.js';
import { buildJsonReport, type JsonReport } from '../report/json-report.js';
import { SecretMask } from '../report/secret-mask.js';
import type { RunOutcome } from '../runner/outcome.js';

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
  /** Stops taking traffic, judges the operations still open on what was seen, writes the reports asked for, and resolves with the report. */
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
    const report = buildJsonReport(outcome);
    if (config.showSecrets) return report;
    // The report leaves the kit as a value, not a file: it passes the same mask as everything the CLI writes.
    const mask = new SecretMask().addUrl(config.upstream).learnExchanges(outcome.transcript.exchanges);
    for (const secret of config.secrets) mask.add(secret);
    return JSON.parse(mask.json(JSON.stringify(report))) as JsonReport;
  };
  const finished = running.finished.then(reportOf);
  // A caller who never awaits `finished` is not told of its failure as an unhandled rejection; stop() still rejects.
  finished.catch(() => undefined);
  return {
    url: running.url,
    report: async () => reportOf(await running.outcome()),
    stop: async () => reportOf(await running.stop()),
    finished,
    progress: () => running.progress(),
  };
}
