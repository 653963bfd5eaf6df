import type { ChangeSetInfo, JudgeContext } from '../core/judge-context.js';
import type { PropertyResult } from '../core/property-result.js';
import type { PropertyTimeLimit } from '../core/property-time-limit.js';
import { budgetShare, isShared } from '../core/time-budget.js';
import type { PropertyContext, PropertySuite } from '../../suites/properties/property.js';
import type { SuiteContext } from '../../suites/suite.js';

/** How the property suites of a run are budgeted and replayed. */
export interface PropertyRunSettings {
  /** The properties to run; empty for a scenario-only run. */
  suites: readonly PropertySuite[];
  /** Cases per property; absent: each property's own default. */
  maxExamples?: number;
  seed?: number;
  /** With `seed`: replays the one case this fast-check path names. */
  path?: string;
  allowApplyGenerated: boolean;
  /** Rules only a wait past the deadline can break that the scenarios showed broken (undefined while they run): not worth shrinking for. */
  deadlineRulesFailed?: () => ReadonlySet<string> | undefined;
  /** Resolves once the scenarios have ended and `deadlineRulesFailed` knows what they showed. */
  deadlineRulesKnown?: Promise<unknown>;
}

/**
 * Runs the properties at once, each checking its cases in batches of sub-cases run together, on the run's
 * client and poller: their exchanges land in the run-wide transcript, so the rules judge them like any other.
 * Properties that only plan start at once; properties that apply take turns once `appliesMayStart` has
 * resolved (the scenarios' applies are done), so that no two applies for one application and environment
 * overlap. A property that applies alongside starts at once too, and holds back only its applies until its turn.
 * Each runs within `timeLimit`, generation and shrinking included; when that is what the run's budget left for
 * them all, properties that take turns share it, so that one shrinking a failure cannot leave the next one
 * without a case.
 */
export async function runProperties(
  base: SuiteContext,
  settings: PropertyRunSettings,
  timeLimit: PropertyTimeLimit,
  judgeContext: JudgeContext,
  registerChangeSet: (info: ChangeSetInfo) => void,
  appliesMayStart: Promise<unknown> = Promise.resolve(),
): Promise<PropertyResult[]> {
  const contextFor = (suite: PropertySuite): PropertyContext => ({
    ...base,
    judgeContext,
    registerChangeSet,
    settings: {
      maxExamples: settings.maxExamples ?? suite.defaultMaxExamples,
      timeLimit,
      seed: settings.seed,
      path: settings.path,
      allowApplyGenerated: settings.allowApplyGenerated,
      ...(settings.deadlineRulesFailed && { deadlineRulesFailed: settings.deadlineRulesFailed }),
      ...(settings.deadlineRulesKnown && { deadlineRulesKnown: settings.deadlineRulesKnown }),
    },
  });
  const deadline = performance.now() + timeLimit.ms;
  const planned = settings.suites.map((suite) => {
    const context = contextFor(suite);
    return { suite, context, applies: suite.applies(context.settings, context.planOnly) };
  });
  let applyTurn: Promise<unknown> = appliesMayStart.catch(() => undefined);
  let turnsLeft = planned.filter((property) => property.applies).length;
  return Promise.all(
    planned.map(({ suite, context, applies }) => {
      if (!applies) return suite.run(context);
      const limited = (): PropertyContext => {
        const limit = isShared(timeLimit) ? budgetShare(shareOf(deadline - performance.now(), turnsLeft)) : timeLimit;
        turnsLeft--;
        return { ...context, settings: { ...context.settings, timeLimit: limit } };
      };
      const turn = suite.appliesAlongside ? suite.run({ ...limited(), appliesMayStart: applyTurn }) : applyTurn.then(() => suite.run(limited()));
      applyTurn = turn.catch(() => undefined);
      return turn;
    }),
  );
}

/** A property's even share of what is left for it and the ones still waiting for their turn; time one leaves unused goes to those after it. */
export function shareOf(remainingMs: number, turnsLeft: number): number {
  return Math.max(1, Math.floor(remainingMs / Math.max(1, turnsLeft)));
}
