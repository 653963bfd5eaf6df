import { describe, expect, it } from 'vitest';
import { judgeRules } from '../../src/rules/index.js';
import { invalidChangeSet, malformedJson } from '../../suites/properties/bad-input.js';
import { propertyHarness } from './support.js';

const harness = propertyHarness();

describe('the bad-input properties against the reference provisioner', () => {
  it.each(['sync', 'async'] as const)('hold for the correct reference in %s mode, sending POST /plan only', async (mode) => {
    const { context, transcript, judgeContext } = await harness({ mode });
    const results = await Promise.all([malformedJson.run(context), invalidChangeSet.run(context)]);
    expect(results.map((r) => [r.name, r.status, r.numRuns])).toEqual([
      ['property/malformed-json', 'passed', 20],
      ['property/invalid-change-set', 'passed', 20],
    ]);
    expect(new Set(transcript.exchanges.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`))).toEqual(new Set(['POST /plan']));
    const input = judgeRules(transcript, judgeContext).filter((r) => r.id.startsWith('input.'));
    expect(input.map((r) => [r.id, r.status])).toEqual([
      ['input.malformed-json', 'pass'],
      ['input.invalid-change-set', 'pass'],
    ]);
  });

  it('finds nested-json-500 and shrinks it to arrays nested 51 deep', async () => {
    const { context, transcript, judgeContext } = await harness({ mode: 'sync', fault: 'nested-json-500' }, { seed: 5, maxExamples: 40 });
    const [malformed, invalid] = await Promise.all([malformedJson.run(context), invalidChangeSet.run(context)]);
    // Unclosed brackets never parse, so only the invalid change sets reach the depth that breaks.
    expect(malformed.status).toBe('passed');
    expect(invalid).toMatchObject({ status: 'failed', ruleIds: ['input.invalid-change-set'] });
    expect(invalid.counterexample).toMatch(/^arrays nested 51 deep: /);
    const key = transcript.bySeq(invalid.exchanges[0]!)!;
    expect(key.request.body).toBe('['.repeat(51) + ']'.repeat(51));
    expect(key.response?.status).toBe(500);
    const rule = judgeRules(transcript, judgeContext).find((r) => r.id === 'input.invalid-change-set')!;
    expect(rule.status).toBe('warn');
    expect(rule.evidence.some((e) => e.exchanges.includes(key.seq))).toBe(true);
  });

  it('finds trailing-garbage-accepted and shrinks it to the smallest change set with one character after it', async () => {
    const { context, transcript } = await harness({ mode: 'async', fault: 'trailing-garbage-accepted' }, { seed: 2, maxExamples: 40 });
    const [malformed, invalid] = await Promise.all([malformedJson.run(context), invalidChangeSet.run(context)]);
    expect(invalid.status).toBe('passed');
    expect(malformed).toMatchObject({ status: 'failed', ruleIds: ['input.malformed-json'] });
    const key = transcript.bySeq(malformed.exchanges[0]!)!;
    expect(key.request.body).toBe('{"changes":[{"id":"a","environment":"a","action":"created"}]}}');
    expect(key.response?.status).toBe(202);
    expect(malformed.counterexample).toBe(`a change set with text after it: ${JSON.stringify(key.request.body)}`);
  });

  it('replays the nested-json-500 counterexample from its seed and path alone', async () => {
    const first = await harness({ mode: 'sync', fault: 'nested-json-500' }, { seed: 5, maxExamples: 40 });
    const found = await invalidChangeSet.run(first.context);
    const again = await harness({ mode: 'sync', fault: 'nested-json-500' }, { seed: 5, path: found.path });
    const replayed = await invalidChangeSet.run(again.context);
    expect(replayed).toMatchObject({ status: 'failed', numRuns: 1, counterexample: found.counterexample });
  });
});
