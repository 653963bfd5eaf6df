import type { PropertySettings, PropertySpec } from '../property.js';
import { batchSizeFor, splitBatchPath } from '../batch-size.js';

/** What a property run asks of fast-check, decided from its settings before its first case. */
export interface PropertyPlan {
  seed: number;
  /** A seed and a path were given: the one case the path names runs, and nothing shrinks ahead of fast-check. */
  replaying: boolean;
  /** fast-check's own path of the replayed case, without the batch size the replay line records. */
  replayPath?: string;
  /** Sub-cases a batch of the property holds by itself, whatever the number of cases asked for. */
  ownSize: number;
  /** Sub-cases a batch holds in this run. */
  size: number;
  /** Batches fast-check generates. */
  numBatches: number;
  /** Sub-cases asked for: the last batch runs only those left of them. */
  planned: number;
}

/** The plan of one property run; `freshSeed` gives the seed when none was given (a test fixes it). */
export function planProperty<T>(settings: PropertySettings, spec: PropertySpec<T>, freshSeed: () => number = randomSeed): PropertyPlan {
  const replaying = settings.seed !== undefined && settings.path !== undefined;
  const ownSize = Math.max(1, Math.floor(spec.batchSize ?? 1));
  // A replay takes the batch size its path recorded; a path without one was run at the property's own size.
  const replayed = settings.path === undefined ? undefined : splitBatchPath(settings.path);
  const size = replaying ? (replayed?.size ?? ownSize) : batchSizeFor(ownSize, settings.maxExamples, spec.batchLimit);
  return {
    seed: settings.seed ?? freshSeed(),
    replaying,
    ...(replaying && replayed && { replayPath: replayed.path }),
    ownSize,
    size,
    // --max-examples counts sub-cases: as few batches as hold them, the last one running only those left.
    numBatches: replaying ? 1 : Math.ceil(settings.maxExamples / size),
    planned: replaying ? size : settings.maxExamples,
  };
}

/** Shrink candidates of place `slot` of a batch of `size` that may run at once: at least one. */
export function shrinkWidthOf<T>(spec: PropertySpec<T>, slot: number, size: number): number {
  return Math.max(1, Math.floor(spec.shrinkWidth?.(slot, size) ?? 1));
}

function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}
