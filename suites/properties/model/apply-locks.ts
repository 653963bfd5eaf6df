import type { LoadedChangeSet } from '../../../src/config/change-sets.js';

/**
 * Which place of a batch of `size` model-based cases may apply under which lock: each lock key (application and
 * environment) goes to exactly one place, in turn, so that no two cases of a batch ever apply under one lock at
 * the same time, as the control plane never does. The other places only plan under that lock. It depends on the
 * change sets and the size alone, so a replay assigns the locks as the run did.
 */
export function applyLocksBySlot(changeSets: readonly LoadedChangeSet[], size: number): Array<ReadonlySet<string>> {
  const slots = Array.from({ length: size }, () => new Set<string>());
  const keys = [...new Set(changeSets.map((changeSet) => changeSet.lockKey))].sort();
  keys.forEach((key, i) => slots[i % size]!.add(key));
  return slots;
}
