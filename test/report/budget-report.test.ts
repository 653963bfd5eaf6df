import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import schema from '../../schemas/report.schema.json' with { type: 'json' };
import { buildJsonReport } from '../../src/report/json-report.js';
import { renderSummary } from '../../src/report/console.js';
import type { BudgetOutcome } from '../../src/runner/outcome.js';
import { sampleOutcome } from './outcome-fixture.js';

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

const SPENT: BudgetOutcome = {
  limit: { ms: 120_000, text: 'PT2M' },
  spentMs: 120_010,
  exhausted: true,
  properties: [
    { name: 'property/generated-plans', casesJudged: 3, casesAsked: 20, interrupted: true },
    { name: 'property/malformed-json', casesJudged: 40, casesAsked: 40, interrupted: false },
  ],
  notExercised: ['operation.within-max-duration', 'apply.idempotent'],
};

function validate(report: unknown): unknown[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const check = ajv.compile(schema);
  check(report);
  return check.errors ?? [];
}

describe('the budget in the JSON report', () => {
  it('is absent without a time limit, and a valid budget object with one', () => {
    expect(buildJsonReport(sampleOutcome())).not.toHaveProperty('budget');
    const report = buildJsonReport(sampleOutcome({ budget: SPENT }));
    expect(report.budget).toEqual(SPENT);
    expect(validate(report)).toEqual([]);
  });

  it('rejects a budget without the cases of its properties', () => {
    const report = buildJsonReport(sampleOutcome({ budget: SPENT })) as unknown as { budget: Record<string, unknown> };
    delete report.budget['properties'];
    expect(validate(report)).not.toEqual([]);
  });
});

describe('the budget in the console summary', () => {
  it('says when the time limit was spent, which rules got no case and which properties got fewer than asked', () => {
    const text = renderSummary(sampleOutcome({ budget: SPENT }), { color: false });
    expect(text).toContain('time limit PT2M spent after 2m00s: driving stopped there, and what had happened was judged');
    expect(text).toContain('2 rules got no case: operation.within-max-duration, apply.idempotent');
    expect(text).toContain('property/generated-plans: 3 of 20 cases judged');
    expect(text).not.toContain('property/malformed-json: ');
  });

  it('says how much of an unspent limit was used, and nothing without one', () => {
    const text = renderSummary(sampleOutcome({ budget: { ...SPENT, exhausted: false, spentMs: 4_200, notExercised: [] } }), { color: false });
    expect(text).toContain('time limit PT2M: 4.2s used, not reached');
    expect(renderSummary(sampleOutcome(), { color: false })).not.toContain('time limit');
  });
});
