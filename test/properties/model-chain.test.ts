import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseChangeSet, type LoadedChangeSet } from '../../src/config/change-sets.js';
import type { Exchange, SubmitKind } from '../../src/transcript/exchange.js';
import { Transcript } from '../../src/transcript/transcript.js';
import type { CaseDriver, FollowResult } from '../../suites/properties/model/case-driver.js';
import type { CommandSequence } from '../../suites/properties/model/commands-arbitrary.js';
import { emptyModel, type TrackedOperation } from '../../suites/properties/model/model.js';
import { settleOperations } from '../../suites/properties/model/settle.js';
import { DEFAULT_MAX_CHAIN, modelBasedRunsSpec } from '../../suites/properties/model/spec.js';
import type { PropertyContext } from '../../suites/properties/property.js';
import { context, IN_PROGRESS, TranscriptBuilder } from '../support/transcript-builder.js';

/** Change sets of three applications (three locks), two of them sharing one lock. */
const CHANGE_SETS: LoadedChangeSet[] = ['shop', 'shop', 'blog', 'wiki'].map((application, i) =>
  parseChangeSet(
    `set-${i}.json`,
    JSON.stringify({ application, environment: 'test', kind: 'managed-resource', type: `type-${i}`, changes: [{ id: `c${i}`, environment: 'test', action: 'created' }] }),
    '/changes',
  ),
);

// The spec only reads the change sets, the plan-only flag and the poll interval while it builds its arbitraries.
const SPEC_CONTEXT = { changeSets: CHANGE_SETS, planOnly: false, judgeContext: { pollIntervalMs: 1000 } } as unknown as PropertyContext;

function finalBody(changeSet: LoadedChangeSet): Record<string, unknown> {
  const results = changeSet.changes.map(({ id, environment }) => ({ id, environment, outcome: 'succeeded', description: 'Done.', outputs: {} }));
  return { outcome: 'succeeded', description: 'Done.', results };
}

/**
 * A case's driver on a clock of its own, in ms from the properties' start: nothing is sent and nothing waits.
 * Every submit is accepted, every operation takes `workMs` (the slowest provisioner the case can meet), reads
 * say in_progress until then, a follow waits until then, and an apply first waits for the scenarios' applies:
 * their apply and its repeat after the end take two operation-lengths from the run's start, and the properties
 * start once the burst's one is over.
 */
class VirtualDriver {
  readonly log: string[] = [];
  readonly suite = 'property/model-based-runs#1';
  // Judged after every step over a transcript of its own that stays empty: judging is not what is measured here.
  readonly context = { client: { transcript: new Transcript() }, judgeContext: context() };
  now = 0;
  waitedMs = 0;
  private readonly builder = new TranscriptBuilder();
  private readonly ends = new Map<string, number>();
  private issued = 0;

  constructor(private readonly workMs: number) {}

  submit(kind: SubmitKind, changeSet: LoadedChangeSet): Promise<Exchange> {
    const scenarioAppliesEnd = this.workMs;
    if (kind === 'apply') this.now = Math.max(this.now, scenarioAppliesEnd);
    this.issued += 1;
    const operationId = `00000000-0000-4000-8000-${String(this.issued).padStart(12, '0')}`;
    this.ends.set(operationId, this.now + this.workMs);
    return Promise.resolve(this.builder.post(kind, { status: 202, body: { operationId }, changeSet: changeSet.name }));
  }

  follow(op: TrackedOperation): Promise<FollowResult> {
    this.now = Math.max(this.now, this.ends.get(op.id)!);
    const poll = this.builder.read(op.id, { status: 200, body: finalBody(op.changeSet) });
    return Promise.resolve({ conclusion: { operationId: op.id, kind: op.kind, reason: 'final', conclusion: 'ended' }, polls: [poll] });
  }

  readTogether(op: TrackedOperation, count: number): Promise<Exchange[]> {
    const ended = this.now >= this.ends.get(op.id)!;
    return Promise.resolve(Array.from({ length: count }, () => this.builder.read(op.id, { status: 200, body: ended ? finalBody(op.changeSet) : IN_PROGRESS })));
  }

  readUnknown(id: string): Promise<Exchange> {
    return Promise.resolve(this.builder.read(id, { status: 404, body: { error: 'no such operation' } }));
  }

  readMalformed(id: { raw: string }): Promise<Exchange> {
    return Promise.resolve(this.builder.read(id.raw, { status: 400, body: { error: 'not an operation id' } }));
  }

  wait(ms: number): Promise<void> {
    this.now += ms;
    this.waitedMs += ms;
    return Promise.resolve();
  }

  idle(): Promise<void> {
    return Promise.resolve();
  }

  /** The control plane's reads while a case waits take no operation-length: nothing to count. */
  accepted(): void {}
}

/** Runs a case on the virtual clock, its end included (what is still open is followed), and says how long it took. */
async function runVirtually(commands: CommandSequence, workMs: number): Promise<{ endMs: number; waitedMs: number; kinds: SubmitKind[] }> {
  const virtual = new VirtualDriver(workMs);
  const driver = virtual as unknown as CaseDriver;
  const model = emptyModel();
  await fc.asyncModelRun(() => ({ model, real: driver }), commands);
  await settleOperations(driver, model);
  return { endMs: virtual.now, waitedMs: virtual.waitedMs, kinds: model.operations.map((op) => op.kind) };
}

/**
 * The longest a generated case took on the virtual clock, in operation-lengths, its own waits set aside, and how
 * many of the cases applied.
 */
async function longestChain(spec: ReturnType<typeof modelBasedRunsSpec>, workMs: number, seeds: number, batch: number): Promise<{ longest: number; applied: number }> {
  let longest = 0;
  let applied = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    for (const [slot, arbitrary] of spec.slots!(batch).entries()) {
      const [commands] = fc.sample(arbitrary, { seed: seed * 100 + slot, numRuns: 1 });
      const { endMs, waitedMs, kinds } = await runVirtually(commands!, workMs);
      longest = Math.max(longest, (endMs - waitedMs) / workMs);
      if (kinds.includes('apply')) applied += 1;
    }
  }
  return { longest, applied };
}

describe('the operations a model-based case waits for one after another', () => {
  it(`never chain more than ${DEFAULT_MAX_CHAIN} operation-lengths from the properties' start, whatever the seed`, async () => {
    const spec = modelBasedRunsSpec(SPEC_CONTEXT);
    // Work of two minutes, which no wait of a case lets end, and work of a second, which reads after waits see end.
    for (const [workMs, seeds] of [[120_000, 80], [1_000, 40]] as const) {
      // Batches of three places: each holds one of the three locks, so every case may apply.
      const { longest, applied } = await longestChain(spec, workMs, seeds, 3);
      expect(longest).toBeLessThanOrEqual(DEFAULT_MAX_CHAIN);
      // The bound is reached, and cases still apply: they plan, follow to the end and submit again.
      expect(longest).toBeGreaterThan(DEFAULT_MAX_CHAIN - 1);
      expect(applied).toBeGreaterThan(0);
    }
  });

  it('are what the bound holds back: without it, cases chain more', async () => {
    const unbounded = modelBasedRunsSpec(SPEC_CONTEXT, { maxChain: Number.POSITIVE_INFINITY });
    expect((await longestChain(unbounded, 120_000, 3, 30)).longest).toBeGreaterThan(DEFAULT_MAX_CHAIN);
  });

  it('hold back an apply when a chain of one is all there is: a case’s apply waits for the scenarios’ applies first', async () => {
    const spec = modelBasedRunsSpec(SPEC_CONTEXT, { maxChain: 1 });
    const kinds = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const [commands] = fc.sample(spec.arbitrary, { seed, numRuns: 1 });
      const ran = await runVirtually(commands!, 120_000);
      expect(ran.endMs - ran.waitedMs).toBeLessThanOrEqual(120_000);
      ran.kinds.forEach((kind) => kinds.add(kind));
    }
    expect([...kinds]).toEqual(['plan']);
  });
});
