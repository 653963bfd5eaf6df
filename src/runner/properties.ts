import type { ChangeSetInfo, JudgeContext } from '../rules/types.js';
import type { PropertyResult, PropertySuite } from '../../suites/properties/property.js';
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
 * Runs every property at once, each checking its cases one after another, on the run's client and poller:
 * their exchanges land in the run-wide transcript, so the rules judge them like any other.
 */
export function runProperties(
  base: SuiteContext,
  settings: PropertyRunSettings,
  judgeContext: JudgeContext,
  registerChangeSet: (info: ChangeSetInfo) => void,
): Promise<PropertyResult[]> {
  return Promise.all(
    settings.suites.map((suite) =>
      suite.run({
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
      }),
    ),
  );
}
