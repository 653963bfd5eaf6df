import type { ChangeSetInfo, JudgeContext } from '../core/judge-context.js';
import type { PropertyResult } from '../core/property-result.js';
import type { PropertyContext, PropertySuite } from '../../suites/properties/property.js';
import type { SuiteContext } from '../../suites/suite.js';

/** How the property suites of a run are budgeted and replayed. */
export interface PropertyRunSettings {
  /** The properties to run; empty for a scenario-only run. */
  suites: readonly PropertySuite[];
  /** Cases per property; absent: each property's own default. */
  maxExamples?: number;
  /** Wall-clock budget of each property, generation and shrinking included. */
  timeLimitMs: number;
  seed?: number;
  /** With `seed`: replays the one case this fast-check path names. */
  path?: string;
  allowApplyGenerated: boolean;
}

/**
 * Runs the properties at once, each checking its cases in batches of sub-cases run together, on the run's
 * client and poller: their exchanges land in the run-wide transcript, so the rules judge them like any other.
 * Properties that only plan start at once; properties that apply start once `appliesMayStart` has resolved
 * (the scenarios' applies are done) and take turns, so that no two applies for one application and
 * environment overlap.
 */
export async function runProperties(
  base: SuiteContext,
  settings: PropertyRunSettings,
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
      timeLimitMs: settings.timeLimitMs,
      seed: settings.seed,
      path: settings.path,
      allowApplyGenerated: settings.allowApplyGenerated,
    },
  });
  let applyTurn: Promise<unknown> = appliesMayStart.catch(() => undefined);
  return Promise.all(
    settings.suites.map((suite) => {
      const context = contextFor(suite);
      if (!suite.applies(context.settings, context.planOnly)) return suite.run(context);
      const turn = applyTurn.then(() => suite.run(context));
      applyTurn = turn.catch(() => undefined);
      return turn;
    }),
  );
}
