import { setMaxListeners } from 'node:events';
import { ProvisionerClient } from '../client/client.js';
import { now } from '../client/clock.js';
import type { ResolvedRunOptions } from '../config/run-options.js';
import type { JudgeContext } from '../core/judge-context.js';
import type { OperationConclusion } from '../core/operation-conclusion.js';
import type { PropertyResult } from '../core/property-result.js';
import { Poller, type OperationObserver } from '../poller/poller.js';
import { Transcript } from '../transcript/transcript.js';
import type { Suite, SuiteContext } from '../../suites/suite.js';
import { SITUATION_SUITES } from '../transcript/situations.js';
import { acceptedOperationId } from '../transcript/views.js';
import { SCENARIOS } from '../../suites/scenarios/index.js';
import { burstSuite } from '../../suites/scenarios/burst.js';
import { restartSuite } from '../../suites/scenarios/restart.js';
import type { Restart } from './restart-command.js';
import { DEFAULT_RESTART_TIMEOUT } from '../config/run-options.js';
import { parsePositiveDuration } from '../core/duration.js';
import { RESTART_HINT } from '../rules/durability.js';
import { RestartFailedError } from '../errors.js';
import { concludeRun } from './conclude.js';
import type { RunOutcome } from './outcome.js';
import { runProperties, type PropertyRunSettings } from './properties.js';
import type { ProfileName } from '../config/profiles.js';
import type { Baseline } from '../config/baseline.js';

/** What a run needs: the resolved options, with a URL to aim at, and what to drive. */
export interface RunRequest extends Omit<ResolvedRunOptions, 'url'> {
  url: string;
  profile?: ProfileName;
  configFile?: string;
  baseline?: Baseline;
  suites?: readonly Suite[];
  /** Property suites and their budgets; absent: none run. */
  properties?: PropertyRunSettings;
  /** Restarts the provisioner while operations are in progress; absent: durability.survives-restart is not exercised. */
  restart?: Restart;
  observer?: OperationObserver;
  signal?: AbortSignal;
}

/** Extra readers sent with each poll, to catch answers that differ between readers. */
const CONCURRENT_READERS = 2;
/**
 * Most connections the kit opens to the provisioner at once, besides the burst's: enough that its own
 * queue never makes an answer look slow. The burst gets one connection per call on top, so that all of
 * its calls are in flight together while the other scenarios go on.
 */
const CONNECTIONS = 50;

/**
 * Runs the burst and resolves once it is over: its calls answered, its operations followed, and the reads after
 * their final answers ended (they belong to the burst's window too).
 */
async function runBurst(context: SuiteContext, calls: number, applies: boolean): Promise<void> {
  await burstSuite({ calls, applies }).run(context);
  const burstIds = context.client.transcript.exchanges
    .filter((exchange) => exchange.suite === SITUATION_SUITES.burst)
    .map(acceptedOperationId)
    .filter((id): id is string => id !== undefined && id !== '');
  await Promise.all(burstIds.map((id) => context.poller.probesDone(id)));
}

function defaultRestartTimeoutMs(): number {
  const parsed = parsePositiveDuration(DEFAULT_RESTART_TIMEOUT);
  if (!parsed.ok) throw new Error(`the default restart timeout ${DEFAULT_RESTART_TIMEOUT} does not parse`);
  return parsed.ms;
}

/** A slow answer is still awaited well past the answer timeout, so that its status can be judged too. */
export function submitTimeoutFor(answerTimeoutMs: number): number {
  return Math.max(answerTimeoutMs * 3, answerTimeoutMs + 20_000);
}

/** Plays the control plane against the provisioner, then judges the whole transcript. */
export async function runConformance(request: RunRequest): Promise<RunOutcome> {
  const startedAt = now();
  const transcript = new Transcript();
  const burst = request.burst ?? 0;
  const client = new ProvisionerClient({ baseUrl: request.url, headers: request.headers, transcript, connections: CONNECTIONS + burst });
  const signal = request.signal ?? new AbortController().signal;
  // Every request in flight listens to the run's signal; hundreds at once are expected, not a leak.
  setMaxListeners(0, signal);
  const poller = new Poller(
    client,
    {
      pollIntervalMs: request.pollIntervalMs,
      maxOperationDurationMs: request.maxOperationDuration.ms,
      readTimeoutMs: request.answerTimeoutMs,
      concurrentReaders: CONCURRENT_READERS,
      probeAfterFinal: true,
    },
    request.observer,
    signal,
  );
  // Property suites add the change sets they generate while the run goes on: the judgement must know them all.
  const context: JudgeContext = {
    changeSets: request.changeSets.map(({ name, file, changes }) => ({ name, file, changes })),
    answerTimeoutMs: request.answerTimeoutMs,
    pollIntervalMs: request.pollIntervalMs,
    maxOperationDuration: request.maxOperationDuration,
    registration: request.registration,
    planOnly: request.planOnly,
    startedAt,
  };
  const operations: OperationConclusion[] = [];
  let properties: PropertyResult[] = [];
  let kitError: RestartFailedError | undefined;
  try {
    const suiteContext = {
      client,
      poller,
      changeSets: request.changeSets,
      planOnly: request.planOnly,
      changesPointer: request.changesPointer,
      submitTimeoutMs: submitTimeoutFor(request.answerTimeoutMs),
      readTimeoutMs: request.answerTimeoutMs,
      signal,
      concluded: (conclusion: OperationConclusion) => operations.push(conclusion),
    };
    // The burst's plans change nothing, so it runs alongside the scenarios.
    const scenarios = (request.suites ?? SCENARIOS).map((suite) => suite.run(suiteContext));
    const burstOver = burst > 0 ? runBurst(suiteContext, burst, request.burstApply ?? false) : Promise.resolve();
    const scenariosOver = Promise.all([...scenarios, burstOver]);
    // Properties start once the scenarios and the burst are over. Those that only plan could run alongside the
    // scenarios' applies, but their batches would then add to the scenarios' operations: a provisioner at its
    // limit that refuses calls would refuse them outside the burst, where a refusal is answer.status', and a case
    // is judged on its own slice, which never sees the burst. Those that apply must wait anyway: the control plane
    // never runs two applies for one application and environment at once.
    await scenariosOver;
    if (request.properties) {
      properties = await runProperties(suiteContext, request.properties, context, (info) => context.changeSets.push(info));
    }
    await poller.settle();
    // The restart goes last and alone: while the provisioner restarts it refuses everyone's calls, and no
    // other suite's call or read should meet that.
    if (request.restart && !signal.aborted) {
      try {
        await restartSuite(request.restart, request.restartTimeoutMs ?? defaultRestartTimeoutMs()).run(suiteContext);
      } catch (error) {
        if (!(error instanceof RestartFailedError)) throw error;
        kitError = error;
      }
      await poller.settle();
    }
  } finally {
    await client.close();
  }

  const interrupted = signal.aborted;
  return concludeRun({
    url: request.url,
    startedAt,
    finishedAt: now(),
    transcript,
    context,
    selection: { only: request.only, skip: request.skip, strict: request.strict },
    interrupted,
    ...(kitError && { kitError }),
    ...(request.baseline && { baseline: request.baseline.waivers }),
    notes: [
      ...(interrupted ? ['the run was stopped before it ended: what was not driven was not judged, so it cannot pass'] : []),
      ...(request.properties?.suites.length ? [] : ['the property suites did not run: generated change sets and bad input were not tried']),
      ...(request.restart ? [] : [`the provisioner was not restarted, so durability.survives-restart was not judged: ${RESTART_HINT}`]),
    ],
    operations,
    properties,
    settings: {
      ...(request.profile !== undefined && { profile: request.profile }),
      ...(request.configFile !== undefined && { configFile: request.configFile }),
      ...(request.baseline !== undefined && { baseline: request.baseline }),
      pollIntervalMs: request.pollIntervalMs,
      answerTimeoutMs: request.answerTimeoutMs,
      maxOperationDuration: request.maxOperationDuration,
      changesPointer: request.changesPointer,
      planOnly: request.planOnly,
      strict: request.strict,
      showSecrets: request.showSecrets,
      changeSets: request.changeSets.map((changeSet) => changeSet.file),
    },
  });
}

