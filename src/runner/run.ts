import { setMaxListeners } from 'node:events';
import { ProvisionerClient } from '../client/client.js';
import { now } from '../client/clock.js';
import type { RunConfig } from '../config/run-config.js';
import type { Duration } from '../core/duration.js';
import type { JudgeContext } from '../core/judge-context.js';
import type { OperationConclusion } from '../core/operation-conclusion.js';
import type { PropertyResult } from '../core/property-result.js';
import { Poller, type OperationObserver } from '../poller/poller.js';
import { Transcript } from '../transcript/transcript.js';
import type { Suite, SuiteContext } from '../../suites/suite.js';
import type { Exchange } from '../transcript/exchange.js';
import { SITUATION_SUITES } from '../transcript/situations.js';
import { acceptedOperationId } from '../transcript/views.js';
import { SCENARIOS } from '../../suites/scenarios/index.js';
import { burstSuite } from '../../suites/scenarios/burst.js';
import { restartSuite } from '../../suites/scenarios/restart.js';
import { lateReads } from '../../suites/scenarios/late-reads.js';
import type { Restart } from '../core/restart.js';
import { RestartFailedError } from '../errors.js';
import { concludeRun } from './conclude.js';
import { trackedProperty, trackedSuite } from './suite-tracking.js';
import type { SuiteProgress } from '../core/suite-progress.js';
import { startBudget, withBudgetedTimeLimit, type RunBudget } from './budget.js';
import type { RunOutcome } from './outcome.js';
import { runProperties, type PropertyRunSettings } from './properties.js';
import { deadlineRulesFailed as deadlineRulesFailedIn } from './deadline-failures.js';
import { notRestartedNote } from '../rules/index.js';
import { FirstWave, NothingAnswered } from './first-wave.js';
import { COLLECTOR_PACING } from '../client/collector-pacing.js';

/** The values of the run's configuration that driving and judging read; the profile and the config file only to record them. */
export type DriveConfig = Pick<
  RunConfig,
  'headers' | 'changeSets' | 'changesPointer' | 'registration' | 'maxOperationDuration' | 'pollInterval' | 'answerTimeout' | 'planOnly' | 'strict' | 'showSecrets' | 'only' | 'skip' | 'timeLimit' | 'baseline'
> &
  Partial<Pick<RunConfig, 'profile' | 'configFile'>>;

/** What driving needs: the configuration's values, the URL to aim at, and what to drive. */
export interface DriveRequest extends DriveConfig {
  url: string;
  suites?: readonly Suite[];
  /** Property suites and their budgets; absent: none run. Without `timeLimitGiven`, a run with a time limit sets their limit. */
  properties?: PropertyRunSettings & { timeLimitGiven?: boolean };
  /** The burst (--burst); absent: no burst. */
  burst?: { calls: number; applies: boolean };
  /** Restarts the provisioner while operations are in progress, within `timeout`; absent: durability.survives-restart is not exercised. */
  restart?: { with: Restart; timeout: Duration };
  observer?: OperationObserver;
  /** Hears how each suite goes: started, cases ended, ended. */
  progress?: SuiteProgress;
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
async function runBurst(context: SuiteContext, burst: Suite): Promise<void> {
  await burst.run(context);
  const burstIds = context.client.transcript.exchanges
    .filter((exchange) => exchange.suite === SITUATION_SUITES.burst)
    .map(acceptedOperationId)
    .filter((id): id is string => id !== undefined && id !== '');
  await Promise.all(burstIds.map((id) => context.poller.probesDone(id)));
}

/** The scenarios' part of the transcript: properties run beside them, and only what the scenarios showed is known for sure. */
function scenariosOf(transcript: Transcript): Transcript {
  const exchanges = transcript.exchanges.filter((exchange) => !exchange.suite.startsWith('property/'));
  const seqs = new Set(exchanges.map((exchange) => exchange.seq));
  return new Transcript(exchanges, transcript.events.filter((event) => event.type !== 'poll-ended' || seqs.has(event.acceptedSeq)));
}

/** A slow answer is still awaited well past the answer timeout, so that its status can be judged too. */
export function submitWaitFor(answerTimeoutMs: number): number {
  return Math.max(answerTimeoutMs * 3, answerTimeoutMs + 20_000);
}

/** The property settings of the run: a time limit nobody gave is what the run's budget leaves (see derivedPropertyTimeLimitMs). */
function propertySettings(request: DriveRequest, budget: RunBudget | undefined): PropertyRunSettings {
  const given = request.properties!;
  if (!budget) return given;
  return withBudgetedTimeLimit(given, budget.remainingMs());
}

/** The properties, each telling `progress` how it goes when someone listens. */
function trackedProperties(settings: PropertyRunSettings, progress: SuiteProgress | undefined): PropertyRunSettings {
  if (!progress) return settings;
  const asked = casesAsked(settings);
  return { ...settings, suites: settings.suites.map((suite) => trackedProperty(suite, progress, asked[suite.name] ?? suite.defaultMaxExamples)) };
}

/** Cases each property was asked for: the number a spent budget is measured against. */
function casesAsked(properties: DriveRequest['properties']): Record<string, number> {
  if (!properties) return {};
  const replaying = properties.seed !== undefined && properties.path !== undefined;
  return Object.fromEntries(properties.suites.map((suite) => [suite.name, replaying ? 1 : (properties.maxExamples ?? suite.defaultMaxExamples)]));
}

/** Plays the control plane against the provisioner, then judges the whole transcript. */
export async function driveAndJudge(request: DriveRequest): Promise<RunOutcome> {
  const startedAt = now();
  const transcript = new Transcript();
  const burst = request.burst?.calls ?? 0;
  // A target whose first wave of calls all ended in transport errors answers nothing: the run stops there.
  const nothingAnswered = new AbortController();
  const wave = new FirstWave((decision, exchanges) => {
    if (decision === 'unreachable') nothingAnswered.abort(new NothingAnswered(exchanges));
  });
  const client = new ProvisionerClient({ baseUrl: request.url, headers: request.headers, transcript, connections: CONNECTIONS + burst, watch: wave });
  const userSignal = request.signal ?? new AbortController().signal;
  // The budget stops driving like the user's stop does, but it is an ordinary end: only the user's makes the run interrupted.
  const budget = request.timeLimit ? startBudget(request.timeLimit, now) : undefined;
  // A restart that failed is a kit error: nothing more is driven, and what was in flight is not followed on.
  const restartFailed = new AbortController();
  const signal = AbortSignal.any([userSignal, nothingAnswered.signal, restartFailed.signal, ...(budget ? [budget.signal] : [])]);
  // Every request in flight listens to the run's signal; hundreds at once are expected, not a leak.
  setMaxListeners(0, signal);
  const poller = new Poller(
    client,
    {
      pollIntervalMs: request.pollInterval.ms,
      maxOperationDurationMs: request.maxOperationDuration.ms,
      answerTimeoutMs: request.answerTimeout.ms,
      concurrentReaders: CONCURRENT_READERS,
      probeAfterFinal: true,
    },
    request.observer,
    signal,
  );
  // Property suites add the change sets they generate while the run goes on: the judgement must know them all.
  const context: JudgeContext = {
    changeSets: request.changeSets.map(({ name, file, changes }) => ({ name, file, changes })),
    answerTimeoutMs: request.answerTimeout.ms,
    pollIntervalMs: request.pollInterval.ms,
    maxOperationDuration: request.maxOperationDuration,
    registration: request.registration,
    planOnly: request.planOnly,
    startedAt,
  };
  const tracked = (suite: Suite): Suite => (request.progress ? trackedSuite(suite, request.progress) : suite);
  const operations: OperationConclusion[] = [];
  let properties: PropertyResult[] = [];
  let kitError: RestartFailedError | undefined;
  try {
    const restartWhileOpening = async (restart: NonNullable<DriveRequest['restart']>, answers: Promise<readonly Exchange[]>): Promise<void> => {
      try {
        await tracked(restartSuite(restart.with, restart.timeout.ms, answers)).run(suiteContext);
      } catch (error) {
        if (!(error instanceof RestartFailedError)) throw error;
        kitError = error;
        restartFailed.abort(error);
      }
    };
    const suiteContext: SuiteContext = {
      client,
      poller,
      changeSets: request.changeSets,
      planOnly: request.planOnly,
      changesPointer: request.changesPointer,
      submitWaitMs: submitWaitFor(request.answerTimeout.ms),
      answerTimeoutMs: request.answerTimeout.ms,
      signal,
      concluded: (conclusion: OperationConclusion) => operations.push(conclusion),
    };
    // With a restart, the suites that open the run go first and alone; the restart happens while their opening
    // work is in progress, and every other suite starts once it has ended, so that none of their calls meets it.
    const suites = request.suites ?? SCENARIOS;
    const openers = request.restart ? suites.filter((suite) => suite.opensRun) : [];
    const opening = openers.map((suite) => {
      let told!: (answers: readonly Exchange[]) => void;
      const answered = new Promise<readonly Exchange[]>((resolve) => (told = resolve));
      const ran = tracked(suite)
        .run({ ...suiteContext, openingAnswered: told })
        .finally(() => told([]));
      return { answered, ran };
    });
    const restarted = request.restart ? restartWhileOpening(request.restart, Promise.all(opening.map((o) => o.answered)).then((parts) => parts.flat())) : Promise.resolve();
    const others = suites.filter((suite) => !openers.includes(suite));
    const scenarios = Promise.all([...opening.map((o) => o.ran), restarted.then(() => Promise.all(others.map(tracked).map((suite) => suite.run(suiteContext))))]);
    // The burst's plans change nothing, so it runs alongside the scenarios.
    const burstOver = restarted.then(() => (burst > 0 && !signal.aborted ? runBurst(suiteContext, tracked(burstSuite({ calls: burst, applies: request.burst?.applies ?? false }))) : undefined));
    // What the scenarios showed of rules only a wait past the deadline can break: properties need not wait to show it again.
    let deadlineRulesFailed: ReadonlySet<string> | undefined;
    const scenariosJudged = scenarios.then(() => {
      deadlineRulesFailed = deadlineRulesFailedIn(scenariosOf(transcript), context);
    });
    // Properties start once the burst is over, alongside the rest of the scenarios: inside the burst's window a
    // refusal of their calls would be the burst's, and their own batches would blur what the burst showed. Their
    // applies wait for the scenarios' (see runProperties), as the control plane never runs two applies under one lock.
    const propertiesDone = burstOver.then(async () => {
      if (!request.properties || nothingAnswered.signal.aborted || restartFailed.signal.aborted) return;
      const settings = { ...trackedProperties(propertySettings(request, budget), request.progress), deadlineRulesFailed: () => deadlineRulesFailed, deadlineRulesKnown: scenariosJudged };
      properties = await runProperties(suiteContext, settings, context, (info) => context.changeSets.push(info), scenariosJudged);
    });
    await Promise.all([scenariosJudged, burstOver, propertiesDone]);
    await poller.settle();
    // Reads of what was read early in the run, now that time has passed.
    const late = lateReads(transcript, request.pollInterval.ms);
    if (late && !signal.aborted) await tracked(late).run(suiteContext);
  } finally {
    budget?.dispose();
    await client.close();
  }

  // Driving's garbage is collected before judging makes its own: judging a long run's transcript builds views of
  // tens of thousands of exchanges, which otherwise grew the heap on top of what driving left.
  COLLECTOR_PACING.collectNow();
  const interrupted = userSignal.aborted;
  // Of a target that answered nothing, only that is said: what the run did not get to is beside the point.
  const unreachable = nothingAnswered.signal.aborted;
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
    notes: unreachable ? [] : [
      ...(interrupted ? ['the run was stopped before it ended: what was not driven was not judged, so it cannot pass'] : []),
      ...(request.properties?.suites.length ? [] : ['the property suites did not run: generated change sets and bad input were not tried']),
      ...(request.restart ? [] : [notRestartedNote()]),
    ],
    operations,
    properties,
    ...(budget && { budget: { limit: budget.limit, spentMs: budget.spentMs(), exhausted: budget.exhausted(), casesAsked: casesAsked(request.properties) } }),
    settings: {
      ...(request.profile !== undefined && { profile: request.profile }),
      ...(request.configFile !== undefined && { configFile: request.configFile }),
      ...(request.baseline !== undefined && { baseline: request.baseline }),
      pollInterval: request.pollInterval,
      answerTimeout: request.answerTimeout,
      maxOperationDuration: request.maxOperationDuration,
      changesPointer: request.changesPointer,
      planOnly: request.planOnly,
      strict: request.strict,
      showSecrets: request.showSecrets,
      changeSets: request.changeSets.map((changeSet) => changeSet.file),
    },
  });
}

