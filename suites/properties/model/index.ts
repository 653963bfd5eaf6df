import type { PropertyResult } from '../../../src/core/property-result.js';
import { checkProperty } from '../check-property.js';
import type { PropertyContext, PropertySuite } from '../property.js';
import { commandsShrunk, joinReplay, replayPathOf, splitReplay } from './replay-path.js';
import { MODEL_BASED_RUNS, modelBasedRunsSpec } from './spec.js';

export { MODEL_BASED_RUNS, DEFAULT_MAX_COMMANDS, DEFAULT_MAX_CHAIN, DEFAULT_BATCH_SIZE, defaultMaxWaitMs, modelBasedRunsSpec } from './spec.js';
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
    return withReplayPath(result, replayPathOf(counterexample), spec.batchSize ?? 1);
  },
};

/**
 * The result's path with the commands' replay path after it, when its counterexample is a shrunk case. A case its
 * batch found, unshrunk, needs none: the path names it, and fast-check's replay path then only holds what the
 * candidates tried while shrinking did, which a replay never walks and so never prints.
 */
function withReplayPath(result: PropertyResult, replayPath: string | undefined, ownBatchSize: number): PropertyResult {
  if (result.path === undefined || replayPath === undefined || !commandsShrunk(result.path, ownBatchSize)) return result;
  const path = joinReplay(result.path, replayPath);
  return { ...result, path, message: result.message.replace(`--path ${result.path}`, `--path ${path}`) };
}
