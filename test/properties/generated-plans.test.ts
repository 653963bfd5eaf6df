import { describe, expect, it } from 'vitest';
import { bundledChangeSetFiles, loadChangeSets, parseChangeSet } from '../../src/config/change-sets.js';
import { judgeRules } from '../../src/rules/index.js';
import { hasPunctuation } from '../../src/reference/input-limits.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import { generatedPlans } from '../../suites/properties/generated-plans.js';
import { changeSetOf, propertyHarness } from './support.js';

const harness = propertyHarness();

/** The change sets a run without --change-set uses, in their order: the first is what shrinking reaches. */
const BUNDLED = await loadChangeSets(await bundledChangeSetFiles(), '/changes');
const FIRST = JSON.parse(BUNDLED[0]!.text) as { changes: Array<Record<string, unknown>>; [key: string]: unknown };

/** A body without its changes: what must be the template's, untouched. */
function withoutChanges(body: Record<string, unknown>): Record<string, unknown> {
  const { changes: _changes, ...rest } = body;
  return rest;
}

const TEMPLATE_FIELDS = new Set(BUNDLED.map((changeSet) => JSON.stringify(withoutChanges(JSON.parse(changeSet.text) as Record<string, unknown>))));

describe('property/generated-plans against the reference provisioner', () => {
  it.each(['sync', 'async', 'mixed'] as const)('holds for the correct reference in %s mode over several seeds', async (mode) => {
    for (const seed of [1, 2, 3]) {
      const { context, transcript } = await harness({ mode }, { seed, maxExamples: mode === 'async' ? 10 : 30 });
      const result = await generatedPlans.run(context);
      expect(result, `seed ${seed}: ${result.notes.join('\n')}`).toMatchObject({ status: 'passed', ruleIds: [], interrupted: false });
      expect(result.numRuns).toBe(mode === 'async' ? 10 : 30);
      const plans = transcript.exchanges.filter((e) => e.tag === 'plan');
      expect(plans).toHaveLength(result.numRuns);
      expect(transcript.exchanges.some((e) => e.tag === 'apply')).toBe(false);
      // Every body is one of the bundled change sets with other changes: no top-level field is ever generated.
      for (const plan of plans) expect(TEMPLATE_FIELDS).toContain(JSON.stringify(withoutChanges(JSON.parse(plan.request.body!) as Record<string, unknown>)));
    }
  });

  it('makes its change sets from the run\'s own, whatever they are', async () => {
    const { context, transcript } = await harness({ mode: 'sync' }, { seed: 5, maxExamples: 15 });
    context.changeSets = [BUNDLED[2]!];
    const result = await generatedPlans.run(context);
    expect(result.status).toBe('passed');
    const bodies = transcript.exchanges.filter((e) => e.tag === 'plan').map((e) => JSON.parse(e.request.body!) as Record<string, unknown>);
    expect(bodies).toHaveLength(15);
    for (const body of bodies) expect(withoutChanges(body)).toEqual(withoutChanges(JSON.parse(BUNDLED[2]!.text) as Record<string, unknown>));
  });

  it('puts the generated changes at the changes pointer of the run and keeps the template\'s other fields', async () => {
    const pointer = '/spec/changes';
    const nested = { spec: { changes: [{ id: 'shop-db', environment: 'test', action: 'created', properties: { size: 's' } }] }, kind: 'k' };
    const { context, transcript } = await harness({ mode: 'sync' }, { seed: 9, path: '0' });
    context.changesPointer = pointer;
    context.changeSets = [parseChangeSet('nested.json', JSON.stringify(nested), pointer)];
    const result = await generatedPlans.run(context);
    // The reference reads changes at /changes only, so it refuses these bodies; what matters here is what was sent.
    const bodies = transcript.exchanges.filter((e) => e.tag === 'plan').map((e) => JSON.parse(e.request.body!) as { spec: { changes: Array<Record<string, unknown>> } });
    expect(bodies.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(result.counterexample!)).toEqual(bodies[0]);
    for (const body of bodies) {
      expect(Object.keys(body)).toEqual(['spec', 'kind']);
      expect(body).toEqual({ spec: { changes: body.spec.changes }, kind: 'k' });
      expect(body.spec.changes.length).toBeGreaterThanOrEqual(1);
      // Properties vary (absent, empty, some keys, extended), but the template's own key keeps its value.
      for (const change of body.spec.changes) if (change.properties !== undefined) expect({ size: 's', ...(change.properties as object) }).toMatchObject({ size: 's' });
    }
    // Results are matched by the generated (id, environment) pairs, not the template's.
    const registered = context.judgeContext.changeSets.map((info) => info.changes);
    expect(registered[0]).toEqual(bodies[0]!.spec.changes.map(({ id, environment }) => ({ id, environment })));
  });

  it('applies generated change sets only when allowed, and then plans each twice and applies it again once the first apply ended', async () => {
    const { context, transcript } = await harness({ mode: 'mixed' }, { maxExamples: 3, allowApplyGenerated: true });
    const result = await generatedPlans.run(context);
    expect(result.status).toBe('passed');
    const applies = transcript.exchanges.filter((e) => e.tag === 'apply');
    expect(applies).toHaveLength(6);
    expect(transcript.exchanges.filter((e) => e.tag === 'plan')).toHaveLength(6);
    const firsts = applies.filter((e) => e.repeatOf === undefined);
    expect(firsts.map((e) => e.suite)).toEqual(firsts.map((e) => e.changeSet));
    for (const first of firsts) {
      // The repeat goes as the repeat scenario's (apply.idempotent finds it so), names the case, and is sent after the first apply's final answer.
      const repeat = applies.find((e) => e.repeatOf === first.seq)!;
      expect(repeat).toMatchObject({ suite: 'scenario/repeat-apply', changeSet: first.suite, request: { body: first.request.body } });
      const firstPolls = transcript.exchanges.filter((e) => e.tag === 'poll' && e.operationId === acceptedOperationId(first));
      expect(firstPolls.length).toBeGreaterThan(0);
      expect(repeat.sentAt).toBeGreaterThanOrEqual(Math.max(...firstPolls.map((e) => e.endedAt)));
    }
    // Every poll belongs to a case: its own suite, or a repeat naming it.
    expect(transcript.exchanges.filter((e) => e.tag === 'poll').every((e) => e.suite.startsWith('property/generated-plans#') || (e.suite === 'scenario/repeat-apply' && e.changeSet!.startsWith('property/generated-plans#')))).toBe(true);
  });

  it.each([
    ['updated-new-outputs', 'apply.idempotent', 1],
    ['batch-new-outputs', 'apply.idempotent', 2],
    ['removed-plan-drift', 'plan.repeatable', 1],
  ] as const)('with applies allowed, finds %s (%s) on its own slice, shrinks it to the fewest changes and replays it', async (fault, ruleId, fewest) => {
    const { context, transcript } = await harness({ mode: 'sync', fault }, { seed: 4, allowApplyGenerated: true });
    const result = await generatedPlans.run(context);
    expect(result.status, result.notes.join('\n')).toBe('failed');
    expect(result.ruleIds).toEqual([ruleId]);
    // The key exchanges are the case's own: its two plans, or its apply and the repeat that names it.
    const keys = result.exchanges.map((seq) => transcript.bySeq(seq)!);
    const caseSuite = keys.find((e) => e.suite.startsWith('property/generated-plans#'))!.suite;
    for (const key of keys) expect(key.changeSet).toBe(caseSuite);
    if (ruleId === 'apply.idempotent') expect(keys.some((e) => e.suite === 'scenario/repeat-apply' && e.tag === 'apply')).toBe(true);
    const { changes } = changeSetOf(result.counterexample);
    expect(changes).toHaveLength(fewest);
    if (fault === 'updated-new-outputs') expect(changes[0]!.action).toBe('updated');
    if (fault === 'removed-plan-drift') expect(changes[0]!.action).toBe('removed');
    expect(result.reruns.at(-1)?.reproduced).toBe(true);

    const again = await harness({ mode: 'sync', fault }, { seed: 4, path: result.path, allowApplyGenerated: true });
    const replayed = await generatedPlans.run(again.context);
    expect(replayed).toMatchObject({ status: 'failed', counterexample: result.counterexample, ruleIds: [ruleId], numRuns: 1 });
  });

  it('finds long-id-result-lost and shrinks it to one change with an id of exactly 21 characters', async () => {
    const { context, transcript, judgeContext } = await harness({ mode: 'sync', fault: 'long-id-result-lost' }, { seed: 7, maxExamples: 40 });
    const result = await generatedPlans.run(context);
    expect(result.status).toBe('failed');
    expect(result.ruleIds).toEqual(['final.results-match-changes']);
    const changeSet = changeSetOf(result.counterexample);
    expect(withoutChanges(changeSet)).toEqual(withoutChanges(FIRST));
    const { changes } = changeSet;
    expect(changes).toHaveLength(1);
    expect(Array.from(changes[0]!.id)).toHaveLength(21);
    expect(changes[0]!.environment).toHaveLength(1);
    expect(changes[0]!.properties).toEqual(FIRST.changes[0]!.properties);
    expect(result.reruns.at(-1)?.reproduced).toBe(true);
    expect(result.message).toContain(`--seed 7 --path ${result.path}`);

    // The counterexample's exchanges are in the run-wide transcript: the run-wide rule fails on them too.
    const rule = judgeRules(transcript, judgeContext).find((r) => r.id === 'final.results-match-changes')!;
    expect(rule.status).toBe('fail');
    const key = result.exchanges[0]!;
    expect(rule.evidence.some((e) => e.exchanges.includes(key))).toBe(true);
  });

  it('finds removed-result-renamed and shrinks it to one removed change', async () => {
    const { context } = await harness({ mode: 'async', fault: 'removed-result-renamed', workMs: 5 }, { seed: 3 });
    const result = await generatedPlans.run(context);
    expect(result.ruleIds).toEqual(['final.results-match-changes']);
    const changeSet = changeSetOf(result.counterexample);
    expect(changeSet.changes).toEqual([{ id: expect.any(String), environment: expect.any(String), action: 'removed', properties: FIRST.changes[0]!.properties }]);
    expect(Array.from(changeSet.changes[0]!.id)).toHaveLength(1);
    expect(Object.keys(changeSet)).toEqual(Object.keys(FIRST));
    expect(withoutChanges(changeSet)).toEqual(withoutChanges(FIRST));
  });

  it('finds punctuation-environment-500 and shrinks it to an environment of one punctuation character', async () => {
    const { context } = await harness({ mode: 'mixed', fault: 'punctuation-environment-500' }, { seed: 11 });
    const result = await generatedPlans.run(context);
    expect(result.ruleIds).toEqual(['answer.status']);
    const changeSet = changeSetOf(result.counterexample);
    expect(withoutChanges(changeSet)).toEqual(withoutChanges(FIRST));
    const { changes } = changeSet;
    expect(changes).toHaveLength(1);
    expect(Array.from(changes[0]!.environment)).toHaveLength(1);
    expect(hasPunctuation(changes[0]!.environment)).toBe(true);
    expect(changes[0]!.id).toHaveLength(1);
    expect(changes[0]!.properties).toEqual(FIRST.changes[0]!.properties);
  });

  it('finds missing-properties-500 and shrinks it to one change without properties', async () => {
    const { context } = await harness({ mode: 'mixed', fault: 'missing-properties-500' }, { seed: 11 });
    const result = await generatedPlans.run(context);
    expect(result.ruleIds).toEqual(['answer.status']);
    const { changes } = changeSetOf(result.counterexample);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.id).toHaveLength(1);
    expect(changes[0]).not.toHaveProperty('properties');
  });

  it('replays exactly the shrunk case from its seed and path', async () => {
    const first = await harness({ mode: 'sync', fault: 'long-id-result-lost' }, { seed: 7, maxExamples: 40 });
    const found = await generatedPlans.run(first.context);
    const again = await harness({ mode: 'sync', fault: 'long-id-result-lost' }, { seed: 7, path: found.path });
    const replayed = await generatedPlans.run(again.context);
    expect(replayed).toMatchObject({ status: 'failed', seed: 7, path: found.path, counterexample: found.counterexample, ruleIds: found.ruleIds, numRuns: 1 });
    // The counterexample printed is the body as sent, byte for byte once compacted.
    expect(again.transcript.exchanges.filter((e) => e.tag === 'plan').map((e) => e.request.body)).toEqual(
      Array(1 + replayed.reruns.length).fill(JSON.stringify(changeSetOf(found.counterexample))),
    );
  });
});
