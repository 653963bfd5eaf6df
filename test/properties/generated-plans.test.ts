import { describe, expect, it } from 'vitest';
import { judgeRules } from '../../src/rules/index.js';
import { hasPunctuation } from '../../src/reference/input-limits.js';
import { generatedPlans } from '../../suites/properties/generated-plans.js';
import { changeSetOf, propertyHarness } from './support.js';

const harness = propertyHarness();

describe('property/generated-plans against the reference provisioner', () => {
  it.each(['sync', 'async', 'mixed'] as const)('holds for the correct reference in %s mode', async (mode) => {
    const { context, transcript } = await harness({ mode }, { maxExamples: mode === 'async' ? 10 : 30 });
    const result = await generatedPlans.run(context);
    expect(result, result.notes.join('\n')).toMatchObject({ status: 'passed', ruleIds: [], interrupted: false });
    expect(result.numRuns).toBe(mode === 'async' ? 10 : 30);
    expect(transcript.exchanges.filter((e) => e.tag === 'plan')).toHaveLength(result.numRuns);
    expect(transcript.exchanges.some((e) => e.tag === 'apply')).toBe(false);
  });

  it('applies generated change sets only when allowed', async () => {
    const { context, transcript } = await harness({ mode: 'mixed' }, { maxExamples: 3, allowApplyGenerated: true });
    const result = await generatedPlans.run(context);
    expect(result.status).toBe('passed');
    expect(transcript.exchanges.filter((e) => e.tag === 'apply')).toHaveLength(3);
    expect(transcript.exchanges.filter((e) => e.tag === 'poll').every((e) => e.suite.startsWith('property/generated-plans#'))).toBe(true);
  });

  it('finds long-id-result-lost and shrinks it to one change with an id of exactly 21 characters', async () => {
    const { context, transcript, judgeContext } = await harness({ mode: 'sync', fault: 'long-id-result-lost' }, { seed: 7, maxExamples: 40 });
    const result = await generatedPlans.run(context);
    expect(result.status).toBe('failed');
    expect(result.ruleIds).toEqual(['final.results-match-changes']);
    const { changes } = changeSetOf(result.counterexample);
    expect(changes).toHaveLength(1);
    expect(Array.from(changes[0]!.id)).toHaveLength(21);
    expect(changes[0]!.environment).toHaveLength(1);
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
    expect(changeSet.changes).toEqual([{ id: expect.any(String), environment: expect.any(String), action: 'removed' }]);
    expect(Array.from(changeSet.changes[0]!.id)).toHaveLength(1);
    expect(Object.keys(changeSet)).toEqual(['changes']);
  });

  it('finds punctuation-environment-500 and shrinks it to an environment of one punctuation character', async () => {
    const { context } = await harness({ mode: 'mixed', fault: 'punctuation-environment-500' }, { seed: 11 });
    const result = await generatedPlans.run(context);
    expect(result.ruleIds).toEqual(['answer.status']);
    const { changes } = changeSetOf(result.counterexample);
    expect(changes).toHaveLength(1);
    expect(Array.from(changes[0]!.environment)).toHaveLength(1);
    expect(hasPunctuation(changes[0]!.environment)).toBe(true);
    expect(changes[0]!.id).toHaveLength(1);
  });

  it('replays exactly the shrunk case from its seed and path', async () => {
    const first = await harness({ mode: 'sync', fault: 'long-id-result-lost' }, { seed: 7, maxExamples: 40 });
    const found = await generatedPlans.run(first.context);
    const again = await harness({ mode: 'sync', fault: 'long-id-result-lost' }, { seed: 7, path: found.path });
    const replayed = await generatedPlans.run(again.context);
    expect(replayed).toMatchObject({ status: 'failed', seed: 7, path: found.path, counterexample: found.counterexample, ruleIds: found.ruleIds, numRuns: 1 });
    expect(again.transcript.exchanges.filter((e) => e.tag === 'plan').map((e) => e.request.body)).toEqual(
      Array(1 + replayed.reruns.length).fill(JSON.stringify(changeSetOf(found.counterexample))),
    );
  });
});
