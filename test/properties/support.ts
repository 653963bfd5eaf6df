import { bundledChangeSetFiles, loadChangeSets } from '../../src/config/change-sets.js';
import { afterEach } from 'vitest';
import { ProvisionerClient } from '../../src/client/client.js';
import { Poller } from '../../src/poller/poller.js';
import { startReferenceProvisioner, type ReferenceOptions, type RunningReference } from '../../src/reference/index.js';
import type { JudgeContext } from '../../src/core/judge-context.js';
import { Transcript } from '../../src/transcript/transcript.js';
import type { PropertyContext, PropertySettings } from '../../suites/properties/property.js';
import { givenTimeLimit } from '../support/time-limit.js';

export interface PropertyHarness {
  context: PropertyContext;
  transcript: Transcript;
  judgeContext: JudgeContext;
}

const POLL_INTERVAL_MS = 20;

/**
 * A property context against a reference provisioner on a loopback port, with the run's real client and
 * poller; references and clients are closed after each test.
 */
export function propertyHarness(): (reference: ReferenceOptions, settings?: Partial<PropertySettings>) => Promise<PropertyHarness> {
  const open: Array<{ reference: RunningReference; client: ProvisionerClient }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map(async ({ reference, client }) => {
      await client.close();
      await reference.close();
    }));
  });
  return async (referenceOptions, settings = {}) => {
    const reference = await startReferenceProvisioner({ workMs: 30, ...referenceOptions });
    const transcript = new Transcript();
    const client = new ProvisionerClient({ baseUrl: reference.url, transcript, connections: 20 });
    open.push({ reference, client });
    const signal = new AbortController().signal;
    const poller = new Poller(client, {
      pollIntervalMs: POLL_INTERVAL_MS,
      maxOperationDurationMs: 10_000,
      answerTimeoutMs: 5_000,
      concurrentReaders: 2,
      readAfterFinal: true,
    }, undefined, signal);
    const judgeContext: JudgeContext = {
      changeSets: [],
      answerTimeoutMs: 5_000,
      pollIntervalMs: POLL_INTERVAL_MS,
      maxOperationDuration: { ms: 10_000, text: 'PT10S', source: 'flag' },
      planOnly: false,
      startedAt: Date.now(),
    };
    const context: PropertyContext = {
      client,
      poller,
      changeSets: await loadChangeSets(await bundledChangeSetFiles(), '/changes'),
      planOnly: false,
      changesPointer: '/changes',
      submitWaitMs: 10_000,
      answerTimeoutMs: 5_000,
      signal,
      concluded: () => undefined,
      judgeContext,
      registerChangeSet: (info) => judgeContext.changeSets.push(info),
      settings: { maxExamples: 20, timeLimit: givenTimeLimit(30_000), allowApplyGenerated: false, ...settings },
    };
    return { context, transcript, judgeContext };
  };
}

/** The counterexample a generated-plans property printed, parsed back. */
export function changeSetOf(counterexample: string | undefined): { changes: Array<{ id: string; environment: string; action: string; properties?: unknown }>; [key: string]: unknown } {
  if (counterexample === undefined) throw new Error('no counterexample');
  return JSON.parse(counterexample) as ReturnType<typeof changeSetOf>;
}
