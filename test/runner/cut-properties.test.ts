import { describe, expect, it } from 'vitest';
import { judgeRun, shortProperties } from '../../src/runner/judge-run.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import { context, SHOP_DB, shopDbFinal, T0, TranscriptBuilder } from '../support/transcript-builder.js';

function property(name: string, numRuns: number, casesAsked: number | undefined, status: PropertyResult['status'] = 'passed', shrinkRuns?: number): PropertyResult {
  return { name, status, numRuns, ...(shrinkRuns !== undefined && { shrinkRuns }), ...(casesAsked !== undefined && { casesAsked }), seed: 1, interrupted: numRuns < (casesAsked ?? 0), ruleIds: [], exchanges: [], notes: [], reruns: [], message: '' };
}

describe('a property cut short', () => {
  it('is one that passed over fewer generated cases than asked, shrink candidates not counted', () => {
    const cut = property('property/model-based-runs', 30, 50);
    expect(shortProperties([cut, property('property/generated-plans', 50, 50), property('property/old-report', 12, undefined), property('property/failed', 60, 50, 'failed', 40)])).toEqual([cut]);
    expect(shortProperties([property('property/shrunk', 70, 50, 'passed', 30)])).toEqual([property('property/shrunk', 70, 50, 'passed', 30)]);
  });

  it('leaves a certification incomplete and is named in its conclusions with its count and the limit that cut it', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: shopDbFinal(), changeSet: SHOP_DB.name });
    const outcome = judgeRun({
      url: b.baseUrl,
      startedAt: T0,
      finishedAt: T0 + 1000,
      transcript: b.transcript,
      context: context(),
      selection: {},
      settings: { profile: 'certify', pollInterval: { text: 'PT10S', ms: 10_000 }, answerTimeout: { text: 'PT10S', ms: 10_000 }, maxOperationDuration: { ms: 300_000, text: 'PT5M', source: 'flag' }, changesPointer: '/changes', planOnly: false, strict: true, showSecrets: false, changeSets: [] },
      interrupted: false,
      notes: [],
      operations: [],
      properties: [{ ...property('property/model-based-runs', 30, 50), timeLimit: { text: 'PT10M', ms: 600_000, origin: { source: 'given' } } }],
    });
    expect(outcome.verdict).toBe('incomplete');
    expect(outcome.conclusions.join('\n')).toContain('cut short by a time limit: property/model-based-runs judged 30 of 50 cases within its time limit PT10M (given by --property-time-limit)');
  });

  it('names the rules and properties a spent time limit left without cases once, in the budget sentence, not again in the incomplete one', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 202, body: { operationId: '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b' }, changeSet: SHOP_DB.name });
    const outcome = judgeRun({
      url: b.baseUrl,
      startedAt: T0,
      finishedAt: T0 + 3000,
      transcript: b.transcript,
      context: context(),
      selection: {},
      settings: { profile: 'ci', pollInterval: { text: 'PT1S', ms: 1000 }, answerTimeout: { text: 'PT10S', ms: 10_000 }, maxOperationDuration: { ms: 300_000, text: 'PT5M', source: 'flag' }, changesPointer: '/changes', planOnly: false, strict: false, showSecrets: false, changeSets: [] },
      interrupted: false,
      notes: [],
      operations: [],
      properties: [property('property/model-based-runs', 0, 30)],
      budget: { limit: { ms: 3000, text: 'PT3S' }, spentMs: 3000, exhausted: true, casesAsked: { 'property/model-based-runs': 30 } },
    });
    expect(outcome.verdict).toBe('incomplete');
    const notExercised = outcome.rules.filter((rule) => rule.status === 'not-exercised');
    expect(notExercised.length).toBeGreaterThan(1);
    const budget = outcome.conclusions.find((conclusion) => conclusion.startsWith("the run's time limit PT3S (--time-limit) was spent"))!;
    expect(budget).toContain(`${notExercised.length} rules got no case: ${notExercised.map((rule) => rule.id).join(', ')}`);
    expect(budget).toContain('properties cut short: property/model-based-runs 0 of 30 cases');
    const incomplete = outcome.conclusions.find((conclusion) => conclusion.startsWith('the run is incomplete'))!;
    expect(incomplete).toBe(
      `the run is incomplete: its time limit PT3S was spent before it ended (raise --time-limit), so nothing is known about the ${notExercised.length} rules that got no case (each says why in the list of rules)`,
    );
    // Every rule with no case is named once across the conclusions.
    for (const rule of notExercised) expect(outcome.conclusions.join('\n').split(rule.id).length - 1).toBe(1);
  });
});
