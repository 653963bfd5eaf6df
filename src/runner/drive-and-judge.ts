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
import { judgeRun } from './judge-run.js';
import { trackedProperty, trackedSuite } from './suite-tracking.js';
import type { SuiteProgress } from '../core/suite-progress.js';
import { startBudget, type RunBudget } from './budget.js';
import { propertyTimeLimitAt, type TimeBudget } from '../core/time-budget.js';
import type { RunOutcome } from './outcome.js';
import { runProperties, type PropertyRunSettings } from './properties.js';
import { deadlineRulesFailed as deadlineRulesFailedIn } from './deadline-failures.js';
import { notRestartedNote } from '../rules/index.js';
import { FirstWaveWatch, NothingAnswered } from './first-wave.js';
import { COLLECTION_SCHEDULE } from '../client/collection-schedule.js';

/** The values of the run's configuration that driving and judging read; the profile and the config file only to record them. */
export type DriveConfig = Pick<
  RunConfig,
  'headers' | 'changeSets' | 'changesPointer' | 'registration' | 'maxOperationDuration' | 'pollInterval' | 'answerTimeout' | 'planOnly' | 'strict' | 'showSecrets' | 'only' | 'skip' | 'baseline'
> &
  Partial<Pick<RunConfig, 'profile' | 'configFile'>>;

/** What driving needs: the configuration's values, the URL to aim at, and what to drive. */
export interface DriveRequest extends DriveConfig {
  url: string;
  suites?: readonly Suite[];
  /** What the run may spend: its --time-limit, and each property's limit; absent: no limit (and no property may run). */
  timeBudget?: TimeBudget;
  /** Property suites and how many cases each gets, or the one case to replay; absent: none run. */
  properties?: PropertyRunSettings;
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
  await Promise.all(burstIds.map((id) => context.poller.readsAfterFinalDone(id)));
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

/** What one run's driving shares between its steps: the transcript, the connections, the signals and the budget. */
interface Drive {
  readonly request: DriveRequest;
  readonly startedAt: number;
  readonly transcript: Transcript;
  readonly client: ProvisionerClient;
  /** The user's stop: the only one that makes the run interrupted. */
  readonly userSignal: AbortSignal;
  /** A target whose first wave of calls all ended in transport errors answers nothing: the run stops there. */
  readonly nothingAnswered: AbortController;
  /** A restart that failed is a kit error: nothing more is driven, and what was in flight is not followed on. */
  readonly restartFailed: AbortController;
  /** Aborts when any of the above does, or the run's time limit passes. */
  readonly signal: AbortSignal;
  /** The clock of the run's --time-limit; absent: none. */
  readonly clock?: RunBudget;
  /** Property suites add the change sets they generate while the run goes on: the judgement must know them all. */
  readonly context: JudgeContext;
  readonly suiteContext: SuiteContext;
  readonly operations: OperationConclusion[];
  properties: PropertyResult[];
  kitError?: RestartFailedError;
}

/** Plays the control plane against the provisioner, then judges the whole transcript. */
export async function driveAndJudge(request: DriveRequest): Promise<RunOutcome> {
  const drive = openDrive(request);
  try {
    await driveAll(drive);
  } finally {
    drive.clock?.dispose();
    await drive.client.close();
  }
  // Driving's garbage is collected before judging makes its own: judging a long run's transcript builds views of
  // tens of thousands of exchanges, which otherwise grew the heap on top of what driving left.
  COLLECTION_SCHEDULE.collectNow();
  return judgeDrive(drive);
}

/** Opens the run's client and poller, and starts its clock: nothing is sent yet. */
function openDrive(request: DriveRequest): Drive {
  const startedAt = now();
  const transcript = new Transcript();
  const nothingAnswered = new AbortController();
  const wave = new FirstWaveWatch((decision, exchanges) => {
    if (decision === 'unreachable') nothingAnswered.abort(new NothingAnswered(exchanges));
  });
  const client = new ProvisionerClient({ baseUrl: request.url, headers: request.headers, transcript, connections: CONNECTIONS + (request.burst?.calls ?? 0), watch: wave });
  const userSignal = request.signal ?? new AbortController().signal;
  // The budget stops driving like the user's stop does, but it is an ordinary end: only the user's makes the run interrupted.
  const runLimit = request.timeBudget?.run;
  const clock = runLimit ? startBudget(runLimit, now) : undefined;
  const restartFailed = new AbortController();
  const signal = AbortSignal.any([userSignal, nothingAnswered.signal, restartFailed.signal, ...(clock ? [clock.signal] : [])]);
  // Every request in flight listens to the run's signal; hundreds at once are expected, not a leak.
  setMaxListeners(0, signal);
  const poller = new Poller(
    client,
    {
      pollIntervalMs: request.pollInterval.ms,
      maxOperationDurationMs: request.maxOperationDuration.ms,
      answerTimeoutMs: request.answerTimeout.ms,
      concurrentReaders: CONCURRENT_READERS,
      readAfterFinal: true,
    },
    request.observer,
    signal,
  );
  const context: JudgeContext = {
    changeSets: request.changeSets.map(({ name, file, changes }) => ({ name, file, changes })),
    answerTimeoutMs: request.answerTimeout.ms,
    pollIntervalMs: request.pollInterval.ms,
    maxOperationDuration: request.maxOperationDuration,
    registration: request.registration,
    planOnly: request.planOnly,
    startedAt,
  };
  const operations: OperationConclusion[] = [];
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
  return { request, startedAt, transcript, client, userSignal, nothingAnswered, restartFailed, signal, ...(clock && { clock }), context, suiteContext, operations, properties: [] };
}

/** A suite as the run drives it: telling the live progress how it goes when someone listens. */
function tracked(drive: Drive, suite: Suite): Suite {
  return drive.request.progress ? trackedSuite(suite, drive.request.progress) : suite;
}

/** The scenarios, the restart, the burst and the properties, then the late reads, until all have ended. */
async function driveAll(drive: Drive): Promise<void> {
  const { request, suiteContext, signal } = drive;
  const { scenarios, restarted } = startScenarios(drive);
  // The burst's plans change nothing, so it runs alongside the scenarios.
  const burst = request.burst;
  const burstOver = restarted.then(() => (burst && burst.calls > 0 && !signal.aborted ? runBurst(suiteContext, tracked(drive, burstSuite(burst))) : undefined));
  // What the scenarios showed of rules only a wait past the deadline can break: properties need not wait to show it again.
  let deadlineRulesFailed: ReadonlySet<string> | undefined;
  const scenariosJudged = scenarios.then(() => {
    deadlineRulesFailed = deadlineRulesFailedIn(scenariosOf(drive.transcript), drive.context);
  });
  // Properties start once the burst is over, alongside the rest of the scenarios: inside the burst's window a
  // refusal of their calls would be the burst's, and their own batches would blur what the burst showed. Their
  // applies wait for the scenarios' (see runProperties), as the control plane never runs two applies under one lock.
  const propertiesDone = burstOver.then(() => runPropertiesOf(drive, scenariosJudged, () => deadlineRulesFailed));
  await Promise.all([scenariosJudged, burstOver, propertiesDone]);
  await suiteContext.poller.settle();
  // Reads of what was read early in the run, now that time has passed.
  const late = lateReads(drive.transcript, request.pollInterval.ms);
  if (late && !signal.aborted) await tracked(drive, late).run(suiteContext);
}

/**
 * Starts the scenarios. With a restart, the suites that open the run go first and alone; the restart happens while
 * their opening work is in progress, and every other suite starts once it has ended, so that none of their calls meets it.
 */
function startScenarios(drive: Drive): { scenarios: Promise<unknown>; restarted: Promise<void> } {
  const { request, suiteContext } = drive;
  const suites = request.suites ?? SCENARIOS;
  const openers = request.restart ? suites.filter((suite) => suite.opensRun) : [];
  let restartEnded!: () => void;
  const restartOver = new Promise<void>((resolve) => (restartEnded = resolve));
  const opening = openers.map((suite) => {
    let told!: (answers: readonly Exchange[]) => void;
    const answered = new Promise<readonly Exchange[]>((resolve) => (told = resolve));
    const ran = tracked(drive, suite)
      .run({ ...suiteContext, openingAnswered: told, restartEnded: restartOver })
      .finally(() => told([]));
    return { answered, ran };
  });
  const openingAnswers = Promise.all(opening.map((o) => o.answered)).then((parts) => parts.flat());
  const restarted = request.restart ? restartWhileOpening(drive, request.restart, openingAnswers) : Promise.resolve();
  void restarted.then(restartEnded, restartEnded);
  const others = suites.filter((suite) => !openers.includes(suite));
  const scenarios = Promise.all([...opening.map((o) => o.ran), restarted.then(() => Promise.all(others.map((suite) => tracked(drive, suite).run(suiteContext))))]);
  return { scenarios, restarted };
}

/** Restarts the provisioner once the opening suites' answers are in; a restart that failed stops the run as a kit error. */
async function restartWhileOpening(drive: Drive, restart: NonNullable<DriveRequest['restart']>, answers: Promise<readonly Exchange[]>): Promise<void> {
  try {
    await tracked(drive, restartSuite(restart.with, restart.timeout.ms, answers)).run(drive.suiteContext);
  } catch (error) {
    if (!(error instanceof RestartFailedError)) throw error;
    drive.kitError = error;
    drive.restartFailed.abort(error);
  }
}

/**
 * Runs the property suites, when the run has any and its target answered, each within the limit the run's time
 * budget gives them as they start. Their applies wait until the scenarios are judged (`scenariosJudged`), which is
 * also when `deadlineRulesFailed` knows what the scenarios showed.
 */
async function runPropertiesOf(drive: Drive, scenariosJudged: Promise<void>, deadlineRulesFailed: () => ReadonlySet<string> | undefined): Promise<void> {
  const { request, context } = drive;
  if (!request.properties || drive.nothingAnswered.signal.aborted || drive.restartFailed.signal.aborted) return;
  const timeLimit = propertyTimeLimitAt(request.timeBudget ?? {}, drive.clock?.remainingMs());
  const settings = { ...trackedProperties(request.properties, request.progress), deadlineRulesFailed, deadlineRulesKnown: scenariosJudged };
  drive.properties = await runProperties(drive.suiteContext, settings, timeLimit, context, (info) => context.changeSets.push(info), scenariosJudged);
}

/** Judges what the run drove, with what it knew of its budget and settings. */
function judgeDrive(drive: Drive): RunOutcome {
  const { request, clock } = drive;
  const interrupted = drive.userSignal.aborted;
  // Of a target that answered nothing, only that is said: what the run did not get to is beside the point.
  const unreachable = drive.nothingAnswered.signal.aborted;
  return judgeRun({
    url: request.url,
    startedAt: drive.startedAt,
    finishedAt: now(),
    transcript: drive.transcript,
    context: drive.context,
    selection: { only: request.only, skip: request.skip, strict: request.strict },
    interrupted,
    ...(drive.kitError && { kitError: drive.kitError }),
    ...(request.baseline && { baseline: request.baseline.waivers }),
    notes: unreachable ? [] : [
      ...(interrupted ? ['the run was stopped before it ended: what was not driven was not judged, so it cannot pass'] : []),
      ...(request.properties?.suites.length ? [] : ['the property suites did not run: generated change sets and bad input were not tried']),
      ...(request.restart ? [] : [notRestartedNote()]),
    ],
    operations: drive.operations,
    properties: drive.properties,
    ...(clock && { budget: { limit: clock.limit, spentMs: clock.spentMs(), exhausted: clock.exhausted(), casesAsked: casesAsked(request.properties) } }),
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
