import { checkProperty } from './check-property.js';
import { changeKeys, changeSetArbitrary, type GeneratedChangeSet } from './change-set-arbitrary.js';
import { judgeCase } from './judge-case.js';
import type { CaseVerdict, PropertyContext, PropertyResult, PropertySuite } from './property.js';
import { submitCase } from './submit-case.js';

export const GENERATED_PLANS = 'property/generated-plans';

/** The rules every answer to a valid change set is held to. */
const RULES = ['answer.*', 'accepted.*', 'final.*', 'operation.*'];

/**
 * Generated change sets, valid by the change-set schema, sent to POST /plan (and to POST /apply only when
 * the user allows it, since apply changes real things). Each case is judged by the same rules as the run.
 */
export const generatedPlans: PropertySuite = {
  name: GENERATED_PLANS,
  defaultMaxExamples: 20,
  run(context: PropertyContext): Promise<PropertyResult> {
    return checkProperty(context, {
      name: GENERATED_PLANS,
      arbitrary: changeSetArbitrary(),
      runCase: (changeSet, caseSuite, signal) => runCase(context, changeSet, caseSuite, signal),
      describe: (changeSet) => JSON.stringify(changeSet, null, 2),
    });
  },
};

async function runCase(context: PropertyContext, changeSet: GeneratedChangeSet, caseSuite: string, signal: AbortSignal): Promise<CaseVerdict> {
  // The case's suite name is unique, so it also names the change set for the run-wide judgement.
  const info = { name: caseSuite, changes: changeKeys(changeSet) };
  context.registerChangeSet(info);
  const body = JSON.stringify(changeSet);
  await submitCase(context, { kind: 'plan', tag: 'plan', body, caseSuite, changeSet: caseSuite, signal });
  if (context.settings.allowApplyGenerated && !context.planOnly && !signal.aborted) {
    await submitCase(context, { kind: 'apply', tag: 'apply', body, caseSuite, changeSet: caseSuite, signal });
  }
  return judgeCase(context, caseSuite, [info], RULES);
}
