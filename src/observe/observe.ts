import { now } from '../client/clock.js';
import type { JudgeContext } from '../core/judge-context.js';
import { UsageError } from '../errors.js';
import type { RunOutcome } from '../runner/outcome.js';
import { SecretMask } from '../report/secret-mask.js';
import { changeSetRecorder } from './change-set-files.js';
import type { ObserveConfig } from '../config/observe-config.js';
import { observationOutcome } from './observation-outcome.js';
import { writeOutputs, type MissingOutput } from '../report/write-outputs.js';
import { startProxy } from './proxy.js';
import { ExchangeRecorder } from './recorder.js';
import { startJudging } from './judge-worker-client.js';
import { JudgeFeed } from './judge-feed.js';
import { ObservationFailures } from './observation-failures.js';
import type { JudgeTally } from './streaming-judge.js';
import { TranscriptStream } from './transcript-stream.js';
import { ObservationNews, type ObservationProgress, type ObserveEvent } from './observation-news.js';

/** How an observation talks to the world. */
export interface ObserveIo {
  /** Hears sentences about the observation (the URL it listens on, reports written, failures of the recording side). */
  log?: (line: string) => void;
  /** Stops the observation (a library caller's stop, or SIGINT and SIGTERM for the CLI). */
  signal?: AbortSignal;
  /** Where the judges run: the worker file to start (by default the built one beside this module, when it exists), or false for the proxy's own thread. */
  judgeWorker?: URL | false;
  /** Exchanges that may wait for the judges at most (default {@link MOST_WAITING}). */
  mostWaiting?: number;
  /** Bytes the exchanges waiting for the judges may hold at most (default {@link MOST_WAITING_BYTES}). */
  mostWaitingBytes?: number;
  /** Hears, as data and masked, what the observation tells as it runs: the first break of each rule, the upstream gone and back. */
  onEvent?: (event: ObserveEvent) => void;
}

/** A running observation: where the control plane should call, its outcome so far, and how to end it. */
export interface RunningObservation {
  url: string;
  /** The outcome of what was judged so far (operations still open are not in it yet), once the judges took what was handed to them before the call. */
  outcome(): Promise<RunOutcome>;
  /** Ends the observation: no more traffic is taken, open operations are judged on what was seen, every report is written. */
  stop(): Promise<RunOutcome>;
  /** Settles with the final outcome once the observation ended: stopped, signalled, or its --duration over. */
  finished: Promise<RunOutcome>;
  /** The counts so far (traffic, operations, rules broken, the upstream's health), at once and without waiting for the judges. */
  progress(): ObservationProgress;
  /** The outputs its end could not write, each named; none before it ended. */
  missingOutputs(): readonly MissingOutput[];
}

/** Exchanges waiting to be judged, at most: past it the judges have fallen behind, and further ones are counted, not judged. */
export const MOST_WAITING = 10_000;
/** Bytes the exchanges waiting to be judged hold, at most (bodies as kept, headers): 64 answers at the default body limit. */
export const MOST_WAITING_BYTES = 64 * 1024 * 1024;
/** How often operations are checked against their deadline. */
const SWEEP_MS = 1000;

/** The judging context of observed traffic. */
export function observedContext(config: Pick<ObserveConfig, 'answerTimeoutMs' | 'pollIntervalMs' | 'maxOperationDuration' | 'registration'>, startedAt: number): Omit<JudgeContext, 'changeSets'> {
  return {
    answerTimeoutMs: config.answerTimeoutMs,
    pollIntervalMs: config.pollIntervalMs,
    maxOperationDuration: config.maxOperationDuration,
    ...(config.registration && { registration: config.registration }),
    planOnly: false,
    startedAt,
    observed: true,
  };
}

/**
 * Starts observing: a reverse proxy in front of `config.upstream` whose traffic is judged as it flows, the
 * JSON report rewritten every `reportEveryMs`, and an end by `stop()`, the signal or `durationMs`. The
 * traffic never waits for the judges: exchanges are recorded after their answer was sent and posted to the
 * judges' worker thread; every failure of the judging and writing side (a worker that stopped included) is
 * caught, counted and told, and the proxy goes on.
 */
export async function startObservation(config: ObserveConfig, io: ObserveIo = {}): Promise<RunningObservation> {
  const log = io.log ?? (() => undefined);
  const startedAt = now();
  const context = observedContext(config, startedAt);
  const failures = new ObservationFailures(log);
  const news = new ObservationNews(startedAt, liveMask(config), now, io.onEvent);
  const judge = startJudging(
    { context, selection: config.selection, changesPointer: config.changesPointer },
    {
      ...(config.recordChangeSets !== undefined && { onChangeSet: changeSetRecorder(config.recordChangeSets, failures.of('a change set could not be kept')) }),
      onFailure: (what, error) => failures.of(what, true)(error),
      news: news.judging(config.showSecrets),
    },
    io.judgeWorker,
  );
  // Every exchange appended as it is judged, in the judge's order: `verify FILE` judges it again the same way.
  const transcript =
    config.outputs.transcript === undefined
      ? undefined
      : new TranscriptStream(config.outputs.transcript, { source: 'proxy', url: config.upstream, changesPointer: config.changesPointer, context }, config, failures.of('the transcript could not be written', false, true));
  const bounds = { exchanges: io.mostWaiting ?? MOST_WAITING, bytes: io.mostWaitingBytes ?? MOST_WAITING_BYTES };
  const feed = new JudgeFeed({ judge, recorder: new ExchangeRecorder(config.bodyLimitBytes), transcript, news, failures, bounds });
  const proxy = await listening(config, () =>
    startProxy({
      upstream: config.upstream,
      host: config.listen.host,
      port: config.listen.port,
      bodyLimitBytes: config.bodyLimitBytes,
      onExchange: feed.take,
      onRecordingError: feed.notRecorded,
    }),
  ).catch(async (error: unknown) => {
    await judge.close();
    throw error;
  });
  log(`observe: listening on ${proxy.url}, passing every request on to ${config.upstream}`);
  const outcomeOf = (tally: JudgeTally): RunOutcome =>
    observationOutcome(tally, {
      source: 'proxy',
      url: config.upstream,
      startedAt,
      finishedAt: now(),
      context,
      strict: config.selection.strict ?? false,
      showSecrets: config.showSecrets,
      changesPointer: config.changesPointer,
      notes: [
        `observed the control plane's traffic to ${config.upstream} through ${proxy.url}; the judges ran on the ${judge.where}`,
        ...[feed.backlog.summary(), transcript?.problem()].filter((note) => note !== undefined),
      ],
      answered: feed.answered,
      ...(failures.recordingErrors && { recordingErrors: failures.recordingErrors }),
      ...(failures.unjudged !== undefined && { kitFailure: failures.unjudged, unjudged: feed.notHanded + judge.lost }),
    });
  const outcome = async (): Promise<RunOutcome> => outcomeOf(await judge.tally());
  const chores = startChores(config, { feed, failures, outcome });
  let missingOutputs: MissingOutput[] = [];
  /** Takes no more traffic, lets the judges take all of it and end what is open, then writes every output. */
  const end = async (): Promise<RunOutcome> => {
    chores.stop();
    try {
      await proxy.close();
      await feed.everyExchangeTaken();
      await chores.writing();
      // Every exchange was handed over: the judges take them all, then end the operations still open, at the
      // time the streamed transcript's end line names, so that judging it again ends them alike.
      const endedAt = now();
      const tally = await judge.tally(endedAt);
      await transcript?.close(endedAt);
      const last = outcomeOf(tally);
      // The transcript was appended as the traffic flowed; every other output is written now, and one that
      // cannot be is named at the end, as a run names it.
      const { transcript: _streamed, ...atTheEnd } = config.outputs;
      missingOutputs = await writeOutputs(atTheEnd, last, { shown: maskFor(config, last), secrets: secretsMask(config, last), bundleSettings: bundleSettings(config) });
      return last;
    } finally {
      await judge.close();
    }
  };
  const { stop, finished } = endOnce(end, io.signal, config.durationMs);
  return { url: proxy.url, outcome, stop, finished, progress: () => news.progress(), missingOutputs: () => missingOutputs };
}

/** What an observation does on its own while it runs: it checks operations against their deadline, and rewrites the JSON report. */
function startChores(
  config: ObserveConfig,
  parts: { feed: JudgeFeed; failures: ObservationFailures; outcome: () => Promise<RunOutcome> },
): { stop(): void; writing(): Promise<void> } {
  const { feed, failures, outcome } = parts;
  const sweeper = setInterval(() => feed.sweep(now()), SWEEP_MS);
  sweeper.unref();
  let writing: Promise<void> = Promise.resolve();
  let reportsWaiting = 0;
  const reporter = setInterval(() => {
    // A report still waiting for the judges to catch up is not joined by another.
    if (config.outputs.report === undefined || reportsWaiting > 0) return;
    reportsWaiting += 1;
    writing = writing
      .then(async () => {
        const current = await outcome();
        const shown = maskFor(config, current);
        const [missing] = await writeOutputs({ report: config.outputs.report }, current, { shown, secrets: shown, bundleSettings: {} });
        if (missing) throw missing.error;
      })
      .catch(failures.of('the JSON report could not be written'))
      .finally(() => {
        reportsWaiting -= 1;
      });
  }, config.reportEveryMs);
  reporter.unref();
  return {
    stop: () => {
      clearInterval(sweeper);
      clearInterval(reporter);
    },
    writing: () => writing,
  };
}

/**
 * Ends the observation once, whoever asks first: `stop()`, the signal, or the duration being over. `finished`
 * settles with what that end gave.
 */
function endOnce(end: () => Promise<RunOutcome>, signal: AbortSignal | undefined, durationMs: number | undefined): { stop(): Promise<RunOutcome>; finished: Promise<RunOutcome> } {
  let resolveFinished!: (outcome: RunOutcome) => void;
  let rejectFinished!: (error: unknown) => void;
  const finished = new Promise<RunOutcome>((resolve, reject) => {
    resolveFinished = resolve;
    rejectFinished = reject;
  });
  finished.catch(() => undefined);
  let stopping: Promise<RunOutcome> | undefined;
  const stop = (): Promise<RunOutcome> => {
    if (!stopping) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      stopping = end();
      stopping.then(resolveFinished, rejectFinished);
    }
    return stopping;
  };
  const onAbort = (): void => void stop().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const timer = durationMs === undefined ? undefined : setTimeout(onAbort, durationMs);
  return { stop, finished };
}

/** Every secret of an observation: those known from the start, and the traffic's own. */
function secretsMask(config: ObserveConfig, of: RunOutcome): SecretMask {
  return knownSecrets(config).learnExchanges(of.transcript.exchanges);
}

/** What the outputs show through: every secret masked, unless the user asked to see them. */
function maskFor(config: ObserveConfig, of: RunOutcome): SecretMask {
  return config.showSecrets ? SecretMask.none() : secretsMask(config, of);
}

/** Observes until the observation ends (signal or duration), and resolves with its outcome. */
export async function observe(config: ObserveConfig, io: ObserveIo = {}): Promise<RunOutcome> {
  const running = await startObservation(config, io);
  return running.finished;
}

/** The proxy, listening; an address that cannot be listened on is the user's to change, not a bug. */
async function listening<T>(config: ObserveConfig, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new UsageError('--listen', `cannot listen on ${config.listen.host}:${config.listen.port} (${code})`);
    }
    throw error;
  }
}

/** The mask of what is told while observing: the secrets known from the start (the traffic's own are learnt by the judges). */
function liveMask(config: ObserveConfig): SecretMask {
  return config.showSecrets ? SecretMask.none() : knownSecrets(config);
}

/** The secrets an observation knows before any traffic: the upstream's URL, the registration's values, the ones given. */
export function knownSecrets(config: Pick<ObserveConfig, 'upstream' | 'registration' | 'secrets'>): SecretMask {
  const mask = new SecretMask().addUrl(config.upstream);
  if (config.registration?.json.ok) mask.learnJson(config.registration.json.value);
  for (const secret of config.secrets) mask.add(secret);
  return mask;
}

/** The settings a bundle of an observation records: what was resolved, output paths and extra secrets left out. */
function bundleSettings(config: ObserveConfig): Record<string, unknown> {
  return {
    upstream: config.upstream,
    listen: `${config.listen.host}:${config.listen.port}`,
    maxOperationDuration: config.maxOperationDuration,
    answerTimeoutMs: config.answerTimeoutMs,
    pollIntervalMs: config.pollIntervalMs,
    selection: config.selection,
    changesPointer: config.changesPointer,
    reportEveryMs: config.reportEveryMs,
    ...(config.durationMs !== undefined && { durationMs: config.durationMs }),
    ...(config.registration && { registration: config.registration.file }),
    showSecrets: false,
    bodyLimitBytes: config.bodyLimitBytes,
  };
}
