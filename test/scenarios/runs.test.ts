import { describe, expect, it } from 'vitest';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import { parseChangeSet } from '../../src/config/change-sets.js';
import { runsOf } from '../../suites/scenarios/plan-and-apply.js';

function changeSet(name: string, kind: string | undefined, type: string | undefined, application = 'shop'): LoadedChangeSet {
  const text = JSON.stringify({ application, environment: 'test', ...(kind && { kind }), ...(type && { type }), changes: [{ id: name, environment: 'test', action: 'created' }] });
  return parseChangeSet(`${name}.json`, text, '/changes');
}

const names = (runs: LoadedChangeSet[][]): string[][] => runs.map((run) => run.map((c) => c.name));

describe('applies as control-plane runs', () => {
  it('puts the change sets of different resource types into one run', () => {
    const sets = [changeSet('db', 'managed-resource', 'postgres'), changeSet('logs', 'consumed-resource', 'splunk-index'), changeSet('ns', 'target', 'kubernetes-namespace')];
    expect(names(runsOf(sets))).toEqual([['db', 'logs', 'ns']]);
  });

  it('starts another run for a second change set of the same type', () => {
    const sets = [changeSet('db', 'managed-resource', 'postgres'), changeSet('db2', 'managed-resource', 'postgres'), changeSet('logs', 'consumed-resource', 'splunk-index')];
    expect(names(runsOf(sets))).toEqual([['db', 'logs'], ['db2']]);
  });

  it('runs a change set that names no type alone, since it may share a type with any other', () => {
    const sets = [changeSet('db', 'managed-resource', 'postgres'), changeSet('mystery', undefined, undefined), changeSet('logs', 'consumed-resource', 'splunk-index')];
    expect(names(runsOf(sets))).toEqual([['db', 'logs'], ['mystery']]);
  });

  it('reads the type from the change set, and the lock from its application and environment', () => {
    const set = changeSet('db', 'managed-resource', 'postgres', 'container-shop');
    expect(set.resourceType).toBe('managed-resource/postgres');
    expect(set.lockKey).toBe('container-shop\u0000test');
  });
});
