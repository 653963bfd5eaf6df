import { afterEach, describe, expect, it } from 'vitest';
import { bundledChangeSetFiles, loadChangeSets } from '../../src/config/change-sets.js';
import { startReferenceProvisioner } from '../../src/reference/index.js';
import type { PropertyRunSettings } from '../../src/runner/properties.js';
import { driveAndJudge } from '../../src/runner/drive-and-judge.js';
import type { RunOutcome } from '../../src/runner/outcome.js';
import { modelBasedRuns } from '../../suites/properties/model/index.js';
import { givenTimeLimit } from '../support/time-limit.js';

/**
 * Work that has ended by the first read: the fault breaks the contract only after the final answer, and every case then
 * meets it at the same step whatever the load. With work of a few hundred milliseconds, a loaded machine slowed a
 * case's steps enough for reads sent right after the submit to find it ended, and what failed and how it shrank
 * depended on the load of the moment.
 */
const WORK_MS = 0;
const RULE = 'operation.no-in-progress-after-final';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function racingReference(): Promise<string> {
  const running = await startReferenceProvisioner({ mode: 'async', fault: 'racing-reads', workMs: WORK_MS });
  closers.push(() => running.close());
  return running.url;
}

async function outcomeOf(url: string, id: string): Promise<string> {
  const response = await fetch(`${url}/operations/${id}`);
  expect(response.status).toBe(200);
  return String(((await response.json()) as { outcome?: unknown }).outcome);
}

function readsAtOnce(url: string, id: string, count: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, () => outcomeOf(url, id)));
}

/** A finished operation whose final answer has been given to one read. */
async function finishedOperation(url: string): Promise<string> {
  const body = JSON.stringify({ changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] });
  const answer = await fetch(`${url}/apply`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const { operationId } = (await answer.json()) as { operationId: string };
  await new Promise((resolve) => setTimeout(resolve, WORK_MS + 50));
  expect(await outcomeOf(url, operationId)).toBe('succeeded');
  return operationId;
}

async function run(url: string, properties?: PropertyRunSettings): Promise<RunOutcome> {
  return driveAndJudge({
    url,
    headers: {},
    changeSets: await loadChangeSets(await bundledChangeSetFiles(), '/changes'),
    changesPointer: '/changes',
    maxOperationDuration: { ms: 10_000, text: 'PT10S', source: 'flag' },
    pollInterval: { text: 'PT0.05S', ms: 50 },
    answerTimeout: { text: 'PT2S', ms: 2000 },
    planOnly: false,
    strict: false,
    showSecrets: false,
    timeBudget: { property: givenTimeLimit(30_000) },
    properties,
  });
}

function notHolding(outcome: RunOutcome): string[] {
  return outcome.rules.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id);
}

describe('the racing-reads fault of the reference', () => {
  it('answers in_progress to the third of three reads in flight at once after the final answer', async () => {
    const url = await racingReference();
    const id = await finishedOperation(url);
    expect((await readsAtOnce(url, id, 3)).sort()).toEqual(['in_progress', 'succeeded', 'succeeded']);
  });

  it('stays correct for what the control plane does: the reads of one tick, then single reads', async () => {
    const url = await racingReference();
    const id = await finishedOperation(url);
    // At the tick that brings the final answer, at most two more reads are in flight after it.
    expect(await readsAtOnce(url, id, 2)).toEqual(['succeeded', 'succeeded']);
    for (let i = 0; i < 3; i++) expect(await outcomeOf(url, id)).toBe('succeeded');
  });

  it('leaves a scenario-only run clean, and the model-based suite finds it with a three-step counterexample', async () => {
    const url = await racingReference();
    const scenarios = await run(url);
    expect(notHolding(scenarios)).toEqual([]);
    expect(scenarios.exitCode).toBe(0);
    expect(scenarios.rules.find((r) => r.id === RULE)?.status).toBe('pass');

    const withModel = await run(url, { suites: [modelBasedRuns], maxExamples: 40, seed: 2, allowApplyGenerated: false });
    expect(notHolding(withModel)).toEqual([RULE]);
    expect(withModel.exitCode).toBe(1);
    const [property] = withModel.properties;
    expect(property).toMatchObject({ name: modelBasedRuns.name, status: 'failed', ruleIds: [RULE], seed: 2 });
    expect(property!.message).not.toMatch(/not minimal/);
    expect(property!.counterexample!.split('\n')).toHaveLength(3);
    // The run-wide judgement cites the very exchange the property found.
    const evidence = withModel.rules.find((r) => r.id === RULE)!.evidence.flatMap((e) => e.exchanges);
    expect(evidence).toContain(property!.exchanges[0]);
  });
});
