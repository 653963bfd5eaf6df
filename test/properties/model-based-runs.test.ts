import { afterEach, describe, expect, it } from 'vitest';
import { ProvisionerClient } from '../../src/client/client.js';
import { bundledChangeSetFiles, loadChangeSets } from '../../src/config/change-sets.js';
import { Poller } from '../../src/poller/poller.js';
import { startReferenceProvisioner } from '../../src/reference/index.js';
import type { ReferenceMode } from '../../src/reference/index.js';
import { judgeRules } from '../../src/rules/index.js';
import type { JudgeContext } from '../../src/core/judge-context.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { operations, readsAfterFinal } from '../../src/transcript/views.js';
import fc from 'fast-check';
import { BatchArbitrary } from '../../suites/properties/batch-arbitrary.js';
import { MODEL_BASED_RUNS, modelBasedRuns, modelBasedRunsSpec } from '../../suites/properties/model/index.js';
import { MODEL_CASE_RULES } from '../../suites/properties/model/case-rules.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import type { PropertyContext } from '../../suites/properties/property.js';
import { givenTimeLimit } from '../support/time-limit.js';

// Short work and a short poll interval keep a case around a few hundred milliseconds; the contract is the same at any speed.
const WORK_MS = 200;
/**
 * Racing reads break the contract only after the final answer. Work that has ended before the first read makes every
 * case meet the final answer at the same step whatever the load: with 200 ms of work, a loaded machine slowed a
 * case's steps enough for reads sent right after the submit to find the work ended, and which cases failed, how they
 * shrank and whether a replay failed again depended on the load of the moment.
 */
const WORK_MS_OF: Partial<Record<string, number>> = { 'racing-reads': 0 };
const POLL_MS = 50;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

interface Budget {
  maxExamples: number;
  seed: number;
  path?: string;
}

interface Checked {
  result: PropertyResult;
  transcript: Transcript;
  judgeContext: JudgeContext;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function referenceUrl(mode: ReferenceMode, fault?: string): Promise<string> {
  const running = await startReferenceProvisioner({ mode, fault, workMs: (fault === undefined ? undefined : WORK_MS_OF[fault]) ?? WORK_MS });
  closers.push(() => running.close());
  return running.url;
}

/** Runs the model-based suite as the runner does: a property context on the run's client, a fresh transcript. */
async function checkModel(url: string, budget: Budget): Promise<Checked> {
  const { context, transcript, judgeContext } = await modelContext(url, budget);
  return { result: await modelBasedRuns.run(context), transcript, judgeContext };
}

async function modelContext(url: string, budget: Budget): Promise<{ context: PropertyContext; transcript: Transcript; judgeContext: JudgeContext }> {
  const transcript = new Transcript();
  const client = new ProvisionerClient({ baseUrl: url, transcript });
  closers.push(() => client.close());
  const signal = new AbortController().signal;
  const changeSets = await loadChangeSets(await bundledChangeSetFiles(), '/changes');
  const judgeContext: JudgeContext = {
    changeSets: changeSets.map(({ name, file, changes }) => ({ name, file, changes })),
    answerTimeoutMs: 2000,
    pollIntervalMs: POLL_MS,
    maxOperationDuration: { ms: 10_000, text: 'PT10S', source: 'flag' },
    planOnly: false,
    startedAt: Date.now(),
  };
  const poller = new Poller(client, { pollIntervalMs: POLL_MS, maxOperationDurationMs: 10_000, answerTimeoutMs: 2000, concurrentReaders: 2, readAfterFinal: true });
  const context: PropertyContext = {
    client,
    poller,
    changeSets,
    planOnly: false,
    changesPointer: '/changes',
    submitWaitMs: 5000,
    answerTimeoutMs: 2000,
    signal,
    concluded: () => undefined,
    settings: { maxExamples: budget.maxExamples, timeLimit: givenTimeLimit(30_000), seed: budget.seed, path: budget.path, allowApplyGenerated: false },
    judgeContext,
    registerChangeSet: (info) => judgeContext.changeSets.push(info),
  };
  return { context, transcript, judgeContext };
}

/** The run-wide rules a model-based run can break that did not hold, judged over everything the property sent. */
function brokenRunWide(checked: Checked): string[] {
  return judgeRules(checked.transcript, checked.judgeContext)
    .filter((r) => MODEL_CASE_RULES.includes(r.id) && (r.status === 'fail' || r.status === 'warn'))
    .map((r) => r.id);
}

describe('model-based runs against the correct reference', () => {
  it.each([
    ['sync', 1],
    ['sync', 2],
    ['async', 1],
    ['async', 2],
    ['async', 4],
    ['mixed', 1],
    ['mixed', 2],
  ] as const)('hold in %s mode with seed %i', async (mode, seed) => {
    const url = await referenceUrl(mode);
    const checked = await checkModel(url, { maxExamples: 12, seed });
    expect(checked.result, checked.result.notes.join('\n')).toMatchObject({ name: MODEL_BASED_RUNS, status: 'passed', numRuns: 12, seed, ruleIds: [] });
    const cases = new Set(checked.transcript.exchanges.map((e) => e.suite));
    expect([...cases].every((suite) => suite.startsWith(`${MODEL_BASED_RUNS}#`))).toBe(true);
    expect(cases.size).toBeGreaterThan(1);
    expect(brokenRunWide(checked)).toEqual([]);
    const ops = operations(checked.transcript);
    if (mode === 'sync') expect(ops).toEqual([]);
    else expect(ops.length).toBeGreaterThan(0);
    // The cases went where the bugs live: reads of their own operations after a final answer.
    if (mode === 'async') expect(ops.some((op) => readsAfterFinal(op).length > 0)).toBe(true);
  });
});

describe('model-based runs against a faulty reference', () => {
  it.each([
    // fault, mode, seed, the rule, the longest counterexample (commands)
    ['in-progress-after-final', 'async', 1, 'operation.no-in-progress-after-final', 3],
    ['final-changes', 'async', 1, 'operation.final-stable', 3],
    ['unknown-200', 'mixed', 1, 'operation.unknown-404', 1],
    ['partial-results', 'async', 1, 'operation.in-progress-results-empty', 2],
    ['racing-reads', 'async', 2, 'operation.no-in-progress-after-final', 3],
  ] as const)('%s: breaks only the rule it is about, with a short counterexample that replays', async (fault, mode, seed, rule, longest) => {
    const url = await referenceUrl(mode, fault);
    const found = await checkModel(url, { maxExamples: 40, seed });
    expect(found.result.status).toBe('failed');
    expect(found.result.ruleIds).toEqual([rule]);
    expect(brokenRunWide(found)).toEqual([rule]);
    const lines = found.result.counterexample!.split('\n').filter((line) => !line.includes('(end of case)'));
    // Shrinking ran to its end: the counterexample is a minimal one, not the case its batch found.
    expect(found.result.message).not.toMatch(/not minimal/);
    expect(lines.length).toBeLessThanOrEqual(longest);
    // The first note names the step that broke the rule, with a real id the provisioner issued or was asked about.
    expect(found.result.notes[0]).toMatch(new RegExp(`^${rule.replace('.', '\\.')}: .*${UUID}`));
    expect(found.result.exchanges.length).toBeGreaterThan(0);
    expect(found.result.reruns.some((rerun) => rerun.reproduced)).toBe(true);
    expect(found.result.message).toContain(`--seed ${seed} --path ${found.result.path}`);

    const replayed = await checkModel(url, { maxExamples: 40, seed, path: found.result.path });
    expect(replayed.result).toMatchObject({ status: 'failed', ruleIds: [rule], path: found.result.path });
    // A case replayed beside its batch's load gets up to three more runs to show its failure, as a re-run does, and
    // each run is counted; the message says on which run it showed.
    expect(replayed.result.numRuns).toBeGreaterThanOrEqual(1);
    expect(replayed.result.numRuns).toBeLessThanOrEqual(4);
    if (replayed.result.numRuns > 1) expect(replayed.result.message).toContain(`(on run ${replayed.result.numRuns} of the replayed case beside its batch)`);
    expect(shape(replayed.result.counterexample!)).toEqual(shape(found.result.counterexample!));
  });

  it('racing-reads: the shrunk counterexample is a submit, a step that gets the final answer and three reads at once', async () => {
    const url = await referenceUrl('async', 'racing-reads');
    const { result } = await checkModel(url, { maxExamples: 40, seed: 2 });
    const lines = result.counterexample!.split('\n');
    expect(result).toMatchObject({ status: 'failed', ruleIds: ['operation.no-in-progress-after-final'] });
    expect(result.message).not.toMatch(/not minimal/);
    expect(lines).toHaveLength(3);
    const id = new RegExp(`operation #1 = (${UUID})$`).exec(lines[0]!)?.[1];
    expect(lines[0]).toMatch(/^1\. (plan|apply) \S+ → 202, operation #1 = /);
    // Step 2 brings the final answer: a follow does, and so do reads of the operation, whose work has ended by then.
    // Both cases are as short; the kit reports the one its shrinking meets.
    const followed = new RegExp(`^2\\. follow operation #1 ${id}: \\d+ read\\(s\\) → .*200 succeeded, final answer$`);
    const readEnded = new RegExp(`^2\\. read operation #1 ${id}( ×\\d at once)? → (200 \\w+, )*200 succeeded(, 200 \\w+)*$`);
    expect([followed, readEnded].some((shape) => shape.test(lines[1]!)), lines[1]).toBe(true);
    // Reads sent at once reach the provisioner in no set order: the one that came third says in_progress.
    expect(lines[2]).toMatch(new RegExp(`^3\\. read operation #1 ${id} ×3 at once → `));
    expect(atOnce(lines[2]!)).toEqual(['200 in_progress', '200 succeeded', '200 succeeded']);
    // The note names the step that broke the rule, with its real id, then what the run-wide judge says of it.
    expect(result.notes[0]).toContain(`operation.no-in-progress-after-final: at step 3 (read operation #1 ${id} ×3 at once`);
    expect(result.notes[0]).toMatch(/: read sent [\d.]+m?s after the first final answer arrived said in_progress$/);
  });
});

describe('a model-based case run as load', () => {
  it('sends what the case would, planning where it would apply, and sends nothing once told to end', async () => {
    const url = await referenceUrl('async');
    const { context, transcript } = await modelContext(url, { maxExamples: 1, seed: 1 });
    const spec = modelBasedRunsSpec(context);
    // A lone place holds every lock: its cases apply.
    const cases = fc.sample(new BatchArbitrary(spec.slots!(1)), { numRuns: 40, seed: 3 }).map(([commands]) => commands!);
    const applying = cases.find((commands) => [...commands].some((command) => String(command).startsWith('apply ')))!;
    expect(applying).toBeDefined();
    await spec.runAsLoad!(applying, 'load#1', new AbortController().signal);
    const submits = transcript.exchanges.filter((e) => e.suite === 'load#1' && e.request.method === 'POST');
    expect(submits.length).toBeGreaterThan(0);
    expect(submits.every((e) => new URL(e.request.url).pathname.endsWith('/plan'))).toBe(true);

    const stop = new AbortController();
    stop.abort();
    await spec.runAsLoad!(applying, 'load#2', stop.signal);
    expect(transcript.exchanges.filter((e) => e.suite === 'load#2')).toEqual([]);
  });
});

/**
 * A counterexample with its ids blanked out: a replay sends the same commands, and gets new ids. The answers to reads
 * sent at once are sorted: which of them reaches the provisioner first is not the case's to say.
 */
function shape(counterexample: string): string {
  return counterexample
    .replace(new RegExp(UUID, 'g'), '<id>')
    .replace(/\d+ read\(s\) → .*final answer/g, '<follow>')
    .replace(/(×\d+ at once → )(.*)$/gm, (_, head: string, line: string) => `${head}${atOnce(line).join(', ')}`);
}

/** The answers of a line of reads sent at once, sorted. */
function atOnce(line: string): string[] {
  return line.replace(/^.* at once → /, '').split(', ').sort();
}
