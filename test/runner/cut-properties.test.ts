import { describe, expect, it } from 'vitest';
import { concludeRun, shortProperties } from '../../src/runner/conclude.js';
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

  it('leaves a certification incomplete and is named in its conclusions with its count', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: shopDbFinal(), changeSet: SHOP_DB.name });
    const outcome = concludeRun({
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
      properties: [property('property/model-based-runs', 30, 50)],
    });
    expect(outcome.verdict).toBe('incomplete');
    expect(outcome.conclusions.join('\n')).toMatch(/cut short by a time limit: property\/model-based-runs judged 30 of 50 cases/);
  });
});
