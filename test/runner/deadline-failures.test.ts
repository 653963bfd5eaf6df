import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/rules/index.js';
import { deadlineRulesFailed } from '../../src/runner/deadline-failures.js';
import { context, IN_PROGRESS, OP_ID, shopDbFinal } from '../support/transcript-builder.js';
import { accepted } from '../rules/operation-fixtures.js';

const ONE_SECOND = { maxOperationDuration: { ms: 1000, text: 'PT1S', source: 'flag' as const } };

describe('deadlineRulesFailed', () => {
  it('names only the operation deadline as a rule shown by waiting it out', () => {
    expect(RULES.filter((rule) => rule.shownByWaitingOutDeadline).map((rule) => rule.id)).toEqual(['operation.within-max-duration']);
  });

  it('is the deadline rule when an operation of the transcript so far outlasted the deadline', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 2005, body: shopDbFinal() });
    expect([...deadlineRulesFailed(b.transcript, context(ONE_SECOND))]).toEqual(['operation.within-max-duration']);
  });

  it('is empty when every operation ended within the deadline', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.read(OP_ID, { at: 500, body: shopDbFinal() });
    expect(deadlineRulesFailed(b.transcript, context(ONE_SECOND)).size).toBe(0);
  });
});
