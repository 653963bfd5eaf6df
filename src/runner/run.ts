import { setMaxListeners } from 'node:events';
import { ProvisionerClient } from '../client/client.js';
import { now } from '../client/clock.js';
import type { ResolvedRunOptions } from '../config/run-options.js';
import type { JudgeContext } from '../core/judge-context.js';
import type { OperationConclusion } from '../core/operation-conclusion.js';
import type { PropertyResult } from '../core/property-result.js';
import { Poller, type OperationObserver } from '../poller/poller.js';
import { Transcript } from '../transcript/transcript.js';
import type { Suite } from '../../suites/suite.js';
import { SCENARIOS } from '../../suites/scenarios/index.js';
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
  observer?: OperationObserver;
  signal?: AbortSignal;
}

/** Extra readers sent with each poll, to catch answers that differ between readers. */
const CONCURRENT_READERS = 2;
/** Most connections the kit opens to the provisioner at once: enough that its own queue never makes an answer look slow. */
const CONNECTIONS = 50;

/** A slow answer is still awaited well past the answer timeout, so that its status can be judged too. */
export function submitTimeoutFor(answerTimeoutMs: number): number {
  return Math.max(answerTimeoutMs * 3, answerTimeoutMs + 20_000);
}

/** Plays the control plane against the provisioner, then judges the whole transcript. */
export async function runConformance(request: RunRequest): Promise<RunOutcome> {
  const startedAt = now();
  const transcript = new Transcript();
  const client = new ProvisionerClient({ baseUrl: request.url, headers: request.headers, transcript, connections: CONNECTIONS });
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
    await Promise.all((request.suites ?? SCENARIOS).map((suite) => suite.run(suiteContext)));
    // Properties start once the scenarios are done: model-based runs apply the same change sets, and the
    // control plane never runs two applies for one application and environment at once.
    if (request.properties) {
      properties = await runProperties(suiteContext, request.properties, context, (info) => context.changeSets.push(info));
    }
    await poller.settle();
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
    ...(request.baseline && { baseline: request.baseline.waivers }),
    notes: [
      ...(interrupted ? ['the run was stopped before it ended: what was not driven was not judged, so it cannot pass'] : []),
      ...(request.properties?.suites.length ? [] : ['the property suites did not run: generated change sets and bad input were not tried']),
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

