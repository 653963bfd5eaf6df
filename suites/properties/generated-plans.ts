import { MAX_BATCH } from './batch-size.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { checkProperty } from './check-property.js';
import { changeKeys, templatedChangeSetArbitrary, type TemplatedChangeSet } from './change-set-arbitrary.js';
import { templateOf, type ChangeSetTemplate } from './change-set-template.js';
import { judgeCase } from './judge-case.js';
import { ruleIdsJudgedInCases } from '../../src/rules/index.js';
import { SHRINK_WIDTH, type CaseVerdict, type PropertyContext, type PropertySuite } from './property.js';
import { submitCase } from './submit-case.js';

export const GENERATED_PLANS = 'property/generated-plans';

/** The rules every answer to a valid change set is held to. */
const RULES = ruleIdsJudgedInCases('generated-change-set');
/** And when generated change sets are applied: each is planned twice and applied twice, and the repeats end as the firsts (a case never repeats an apply while it runs, so that rule stays unexercised in it). */
const APPLY_RULES = ruleIdsJudgedInCases('generated-change-set', 'generated-repeat');

/**
 * Plans run at the same time: they change nothing. Each follows its operation with up to 3 reads at once, so 20
 * stay within the client's connections. Applies of generated change sets go one at a time: two of them would
 * apply under one lock (application and environment) at once, which the control plane never does.
 */
const PLAN_BATCH = 20;

/**
 * Change sets made from the run's own (the bundled ones by default): every field of a template stays as it
 * is but the changes, which are generated. They go to POST /plan, and to POST /apply only when the user
 * allows it, since apply changes real things. Cases that apply go one at a time, and repeat as the
 * scenarios do, so that the repeat rules are tried on every mix of actions and sizes: two plans at once,
 * then an apply, then the same apply once more after the first ended (the control plane's next run).
 * Each case is judged by the same rules as the run.
 */
export const generatedPlans: PropertySuite = {
  name: GENERATED_PLANS,
  defaultMaxExamples: 20,
  applies: (settings, planOnly) => settings.allowApplyGenerated && !planOnly,
  async run(context: PropertyContext): Promise<PropertyResult> {
    const templates = templatesOf(context);
    return checkProperty(context, {
      name: GENERATED_PLANS,
      arbitrary: templatedChangeSetArbitrary(templates),
      batchSize: appliesGenerated(context) ? 1 : PLAN_BATCH,
      batchLimit: MAX_BATCH,
      shrinkWidth: () => (appliesGenerated(context) ? 1 : SHRINK_WIDTH),
      // Candidates that only plan cannot interfere: against slow work, as many at once as a batch may hold.
      slowShrinkWidth: MAX_BATCH,
      candidatesFromValue: true,
      caseKey: (changeSet) => JSON.stringify(changeSet.body),
      runCase: (changeSet, caseSuite, signal) => runCase(context, changeSet, caseSuite, signal),
      describe: (changeSet) => JSON.stringify(changeSet.body, null, 2),
    });
  },
};

function templatesOf(context: PropertyContext): ChangeSetTemplate[] {
  return context.changeSets.map((changeSet) => templateOf(changeSet, context.changesPointer));
}

async function runCase(context: PropertyContext, changeSet: TemplatedChangeSet, caseSuite: string, signal: AbortSignal): Promise<CaseVerdict> {
  // The case's suite name is unique, so it also names the change set for the run-wide judgement.
  const info = { name: caseSuite, changes: changeKeys(changeSet) };
  context.registerChangeSet(info);
  const body = JSON.stringify(changeSet.body);
  const plan = (): Promise<unknown> => submitCase(context, { kind: 'plan', tag: 'plan', body, caseSuite, changeSet: caseSuite, signal });
  if (!appliesGenerated(context)) {
    await plan();
    return judgeCase(context, caseSuite, [info], RULES);
  }
  await Promise.all([plan(), plan()]);
  if (!signal.aborted) {
    const first = await submitCase(context, { kind: 'apply', tag: 'apply', body, caseSuite, changeSet: caseSuite, signal });
    // As the repeat scenario sends it, so that apply.idempotent pairs the two; the case's slice takes it in by its change set.
    if (!signal.aborted) {
      await submitCase(context, { kind: 'apply', tag: 'apply', body, caseSuite, suite: SITUATION_SUITES.repeatApply, changeSet: caseSuite, repeatOf: first.seq, signal });
    }
  }
  return judgeCase(context, caseSuite, [info], APPLY_RULES);
}

function appliesGenerated(context: PropertyContext): boolean {
  return context.settings.allowApplyGenerated && !context.planOnly;
}
