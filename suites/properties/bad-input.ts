import { MAX_BATCH } from './batch-size.js';
import { randomUUID } from 'node:crypto';
import { sleep } from '../../src/client/clock.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import { READS_BEFORE_GIVING_UP } from '../../src/rules/support/unanswered-ids.js';
import { isTransient } from '../../src/transcript/views.js';
import type { ExchangeTag } from '../../src/transcript/exchange.js';
import { invalidChangeSetArbitrary, malformedJsonArbitrary, type BadBody } from './bad-input-arbitrary.js';
import { checkProperty } from './check-property.js';
import { judgeCase } from './judge-case.js';
import { ruleIdsJudgedInCases } from '../../src/rules/index.js';
import { SHRINK_WIDTH, type CaseVerdict, type PropertyContext, type PropertySuite } from './property.js';
import { submitCase } from './submit-case.js';
import { probeRead } from '../probe-read.js';

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
  // The rules that declare this kind of bad body's cases judge them.
  const rules = ruleIdsJudgedInCases(tag);
  return {
    name,
    defaultMaxExamples,
    applies: () => false,
    run(context: PropertyContext): Promise<PropertyResult> {
      return checkProperty(context, {
        name,
        arbitrary: arbitrary(),
        batchSize: BATCH,
        batchLimit: MAX_BATCH,
        shrinkWidth: () => SHRINK_WIDTH,
        candidatesFromValue: true,
        caseKey: (body) => body.text,
        runCase: (body, caseSuite, signal) => runCase(context, tag, rules, body, caseSuite, signal),
        describe: describeBody,
      });
    },
  };
}

/**
 * Sends the bad body to POST /plan, never to apply: a provisioner that took it for a change set must not get to
 * change anything. A 5xx, a timeout or a refused connection is no answer, so the body goes again one poll
 * interval later, up to three times; each time again, a read of a random unknown UUID goes with it, so that the
 * case itself shows whether the provisioner answered anything else meanwhile.
 */
async function runCase(context: PropertyContext, tag: ExchangeTag, rules: readonly string[], body: BadBody, caseSuite: string, signal: AbortSignal): Promise<CaseVerdict> {
  for (let sends = 1; !signal.aborted; sends++) {
    const [answer] = await Promise.all([
      submitCase(context, { kind: 'plan', tag, body: body.text, caseSuite, signal }),
      sends > 1 ? readSomethingElse(context, caseSuite, signal) : undefined,
    ]);
    if (!isTransient(answer) || sends >= READS_BEFORE_GIVING_UP) break;
    await sleep(context.judgeContext.pollIntervalMs, signal);
  }
  return judgeCase(context, caseSuite, [], rules);
}

function readSomethingElse(context: PropertyContext, caseSuite: string, signal: AbortSignal): Promise<unknown> {
  return probeRead(context, { suite: caseSuite, tag: 'read-unknown', operationId: randomUUID(), signal });
}

export function describeBody(body: BadBody): string {
  const chars = Array.from(body.text);
  const shown = chars.length <= SHOWN_BODY ? body.text : `${chars.slice(0, SHOWN_BODY).join('')}… (${chars.length} characters in all)`;
  return `${body.what}: ${JSON.stringify(shown)}`;
}
