import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseChangeSet, type LoadedChangeSet } from '../../src/config/change-sets.js';
import { BatchArbitrary } from '../../suites/properties/batch-arbitrary.js';
import { applyLocksBySlot } from '../../suites/properties/model/apply-locks.js';
import { batchSizeFor, MAX_BATCH } from '../../suites/properties/batch-size.js';
import { DEFAULT_BATCH_SIZE, modelBasedRunsSpec } from '../../suites/properties/model/spec.js';
import { SHRINK_WIDTH } from '../../suites/properties/property.js';
import type { PropertyContext } from '../../suites/properties/property.js';

/** Change sets of three applications (three locks), two of them sharing one lock. */
const CHANGE_SETS: LoadedChangeSet[] = ['shop', 'shop', 'blog', 'wiki'].map((application, i) =>
  parseChangeSet(
    `set-${i}.json`,
    JSON.stringify({ application, environment: 'test', kind: 'managed-resource', type: `type-${i}`, changes: [{ id: `c${i}`, environment: 'test', action: 'created' }] }),
    '/changes',
  ),
);
const LOCK_OF = new Map(CHANGE_SETS.map((changeSet) => [changeSet.name, changeSet.lockKey]));

// The spec only reads the change sets, the plan-only flag and the poll interval while it builds its arbitraries.
const CONTEXT = { changeSets: CHANGE_SETS, planOnly: false, judgeContext: { pollIntervalMs: 100 } } as unknown as PropertyContext;

/** The locks a generated case would apply under, read from its commands' lines (`apply NAME`). */
function applyLocks(commands: Iterable<unknown>): Set<string> {
  const locks = new Set<string>();
  for (const command of commands) {
    const match = /^apply (\S+)$/.exec(String(command));
    if (match) locks.add(LOCK_OF.get(match[1]!)!);
  }
  return locks;
}

describe('model-based cases in batches', () => {
  it('give each lock to exactly one place of a batch', () => {
    for (const size of [1, 2, 3, 10]) {
      const slots = applyLocksBySlot(CHANGE_SETS, size);
      expect(slots).toHaveLength(size);
      for (const key of new Set(LOCK_OF.values())) expect(slots.filter((slot) => slot.has(key))).toHaveLength(1);
    }
  });

  it('go as many at once as the cases asked for, up to the limit: certify’s 50 in one batch, a default run’s 30', () => {
    const spec = modelBasedRunsSpec(CONTEXT);
    expect(spec.batchSize).toBe(DEFAULT_BATCH_SIZE);
    expect(spec.batchLimit).toBe(MAX_BATCH);
    expect(batchSizeFor(spec.batchSize!, 50, spec.batchLimit)).toBe(50);
    expect(batchSizeFor(spec.batchSize!, 30, spec.batchLimit)).toBe(30);
    expect(batchSizeFor(spec.batchSize!, 12, spec.batchLimit)).toBe(30);
    expect(batchSizeFor(spec.batchSize!, 200, spec.batchLimit)).toBe(MAX_BATCH);
  });

  it('shrink one candidate at a time only in the places that hold a lock of the batch’s size', () => {
    const spec = modelBasedRunsSpec(CONTEXT);
    // Three locks: in a batch of 50 the first three places hold one each, the others only plan.
    expect([0, 1, 2, 3, 49].map((slot) => spec.shrinkWidth!(slot, 50))).toEqual([1, 1, 1, SHRINK_WIDTH, SHRINK_WIDTH]);
    // In a batch of two, both places hold a lock.
    expect([0, 1].map((slot) => spec.shrinkWidth!(slot, 2))).toEqual([1, 1]);
  });

  it.each([5, 50])('never let two cases of one batch of %i apply under the same lock', (size) => {
    const spec = modelBasedRunsSpec(CONTEXT, { batchSize: 5 });
    // Fewer batches of 50: each holds ten times the cases.
    const numRuns = size === 50 ? 15 : 60;
    const batches = fc.sample(new BatchArbitrary(spec.slots!(size)), { numRuns, seed: 9 });
    let applying = 0;
    for (const batch of batches) {
      const locks = batch.map(applyLocks);
      applying += locks.filter((held) => held.size > 0).length;
      for (let i = 0; i < locks.length; i++) {
        for (let j = i + 1; j < locks.length; j++) expect([...locks[i]!].filter((key) => locks[j]!.has(key))).toEqual([]);
      }
    }
    // Not vacuous: cases do apply, each under the locks its place holds.
    expect(applying).toBeGreaterThan(numRuns / 3);
  });

  it('let a lone case apply under every lock', () => {
    const spec = modelBasedRunsSpec(CONTEXT, { batchSize: 1 });
    const seen = new Set<string>();
    for (const [commands] of fc.sample(new BatchArbitrary(spec.slots!(1)), { numRuns: 60, seed: 4 })) for (const key of applyLocks(commands!)) seen.add(key);
    expect(seen).toEqual(new Set(LOCK_OF.values()));
  });

  it('only plan in a plan-only run', () => {
    const spec = modelBasedRunsSpec({ ...CONTEXT, planOnly: true } as PropertyContext, { batchSize: 3 });
    for (const batch of fc.sample(new BatchArbitrary(spec.slots!(3)), { numRuns: 30, seed: 2 })) for (const commands of batch) expect(applyLocks(commands)).toEqual(new Set());
  });
});
