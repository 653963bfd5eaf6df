import type { PropertyResult } from '../../src/core/property-result.js';
import type { ExchangeTag } from '../../src/transcript/exchange.js';
import { invalidChangeSetArbitrary, malformedJsonArbitrary, type BadBody } from './bad-input-arbitrary.js';
import { checkProperty } from './check-property.js';
import { judgeCase } from './judge-case.js';
import { SHRINK_WIDTH, type CaseVerdict, type PropertyContext, type PropertySuite } from './property.js';
import { submitCase } from './submit-case.js';

export const MALFORMED_JSON = 'property/malformed-json';
export const INVALID_CHANGE_SET = 'property/invalid-change-set';

// Bad bodies run this many at a time, all of a default run: plans of them change nothing, most are answered at
// once, and one a slow provisioner accepts is followed for an operation length.
const BATCH = 40;

// Bodies longer than this are shown cut in a counterexample: ten thousand brackets say nothing more than fifty.
const SHOWN_BODY = 300;

/** Bodies that are not JSON, sent to POST /plan only: the answer must be a 4xx. */
export const malformedJson: PropertySuite = badInputSuite(MALFORMED_JSON, 'malformed-json', 40, malformedJsonArbitrary);

/** JSON bodies that are no change set, sent to POST /plan only: a 4xx, or a failed final answer. */
export const invalidChangeSet: PropertySuite = badInputSuite(INVALID_CHANGE_SET, 'invalid-change-set', 40, invalidChangeSetArbitrary);

function badInputSuite(name: string, tag: ExchangeTag & ('malformed-json' | 'invalid-change-set'), defaultMaxExamples: number, arbitrary: typeof malformedJsonArbitrary): PropertySuite {
  const rule = `input.${tag}`;
  return {
    name,
    defaultMaxExamples,
    applies: () => false,
    run(context: PropertyContext): Promise<PropertyResult> {
      return checkProperty(context, {
        name,
        arbitrary: arbitrary(),
        batchSize: BATCH,
        shrinkWidth: () => SHRINK_WIDTH,
        runCase: (body, caseSuite, signal) => runCase(context, tag, rule, body, caseSuite, signal),
        describe: describeBody,
      });
    },
  };
}

async function runCase(context: PropertyContext, tag: ExchangeTag, rule: string, body: BadBody, caseSuite: string, signal: AbortSignal): Promise<CaseVerdict> {
  // Never apply: a provisioner that took a bad body for a change set must not get to change anything.
  await submitCase(context, { kind: 'plan', tag, body: body.text, caseSuite, signal });
  return judgeCase(context, caseSuite, [], [rule]);
}

export function describeBody(body: BadBody): string {
  const chars = Array.from(body.text);
  const shown = chars.length <= SHOWN_BODY ? body.text : `${chars.slice(0, SHOWN_BODY).join('')}… (${chars.length} characters in all)`;
  return `${body.what}: ${JSON.stringify(shown)}`;
}
