import type { PropertyResult } from '../../../src/core/property-result.js';
import { checkProperty } from '../check-property.js';
import type { PropertyContext, PropertySuite } from '../property.js';
import { joinReplay, replayPathOf, splitReplay } from './replay-path.js';
import { MODEL_BASED_RUNS, modelBasedRunsSpec } from './spec.js';

export { MODEL_BASED_RUNS, DEFAULT_MAX_COMMANDS, DEFAULT_BATCH_SIZE, defaultMaxWaitMs, modelBasedRunsSpec } from './spec.js';
export type { ModelRunOptions } from './spec.js';
export type { CommandSequence } from './commands-arbitrary.js';
export { joinReplay, splitReplay } from './replay-path.js';

/**
 * The model-based suite: one property whose cases are command sequences, run in batches whose cases never apply
 * under one lock at the same time. A counterexample's path carries the
 * commands' replay path after an `@`, so that `--seed S --path P` alone replays it.
 */
export const modelBasedRuns: PropertySuite = {
  name: MODEL_BASED_RUNS,
  defaultMaxExamples: 30,
  applies: (_settings, planOnly) => !planOnly,
  // Most of its cases only plan, and the one that applies waits for the scenarios' applies before each apply.
  appliesAlongside: true,
  async run(context: PropertyContext): Promise<PropertyResult> {
    const replay = splitReplay(context.settings.path);
    const replaying: PropertyContext = { ...context, settings: { ...context.settings, path: replay.path } };
    const spec = modelBasedRunsSpec(replaying, { replayPath: replay.replayPath });
    let counterexample: unknown;
    const result = await checkProperty(replaying, {
      ...spec,
      describe(commands) {
        counterexample = commands;
        return spec.describe(commands);
      },
    });
    return withReplayPath(result, replayPathOf(counterexample));
  },
};

function withReplayPath(result: PropertyResult, replayPath: string | undefined): PropertyResult {
  if (result.path === undefined || replayPath === undefined) return result;
  const path = joinReplay(result.path, replayPath);
  return { ...result, path, message: result.message.replace(`--path ${result.path}`, `--path ${path}`) };
}
