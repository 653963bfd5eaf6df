import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { classifyRequest } from '../../src/observe/classify.js';
import { seenChangeSet } from '../../src/observe/seen-change-set.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('what the streaming judge takes an observed request for', () => {
  it('takes POST /plan and POST /apply for calls, with a trailing slash or a query string', () => {
    for (const path of ['/plan', '/plan/', '/plan//', '/plan?dry=1', '/plan/?dry=1']) expect(classifyRequest('POST', path), path).toEqual({ tag: 'plan' });
    for (const path of ['/apply', '/apply/', '/apply?x=1']) expect(classifyRequest('POST', path), path).toEqual({ tag: 'apply' });
  });

  it('takes a GET of one operation for a read of it, its id decoded when it can be', () => {
    expect(classifyRequest('GET', '/operations/6f1c2a3e')).toEqual({ tag: 'poll', operationId: '6f1c2a3e' });
    expect(classifyRequest('GET', '/operations/6f1c2a3e/?fresh=1')).toEqual({ tag: 'poll', operationId: '6f1c2a3e' });
    expect(classifyRequest('GET', '/operations/a%20b')).toEqual({ tag: 'poll', operationId: 'a b' });
    expect(classifyRequest('GET', '/operations/%E0%A4%A')).toEqual({ tag: 'poll', operationId: '%E0%A4%A' });
  });

  it('passes anything else through unjudged', () => {
    for (const [method, path] of [
      ['GET', '/plan'],
      ['PUT', '/apply'],
      ['POST', '/plans'],
      ['POST', '/v1/plan'],
      ['POST', '/operations/abc'],
      ['DELETE', '/operations/abc'],
      ['GET', '/operations'],
      ['GET', '/operations/'],
      ['GET', '/operations/a/b'],
      ['GET', '/v1/operations/abc'],
      ['GET', '/health'],
    ] as const) {
      expect(classifyRequest(method, path), `${method} ${path}`).toBeUndefined();
    }
  });
});

describe('what the streaming judge reads of a POST body as a change set', () => {
  it('names a change set by its kind, type and the hash of its bytes, with its changes and actions', () => {
    const text = JSON.stringify({
      kind: 'managed-resource',
      type: 'postgres',
      changes: [
        { id: 'shop-db', environment: 'test', action: 'created', properties: { size: 'small' } },
        { id: 'shop-db', environment: 'prod', action: 'updated' },
      ],
    });
    expect(seenChangeSet(text, '/changes')).toEqual({
      name: `managed-resource-postgres-${sha(text).slice(0, 12)}`,
      resourceType: 'managed-resource/postgres',
      changes: [
        { id: 'shop-db', environment: 'test' },
        { id: 'shop-db', environment: 'prod' },
      ],
      actions: ['created', 'updated'],
      sha256: sha(text),
      text,
    });
  });

  it('keeps a name safe in a file name whatever the kind and type say', () => {
    const changes = [{ id: 'a', environment: 'test', action: 'created' }];
    const named = (kind: string, type: string): string => seenChangeSet(JSON.stringify({ kind, type, changes }), '/changes').name.replace(/-[0-9a-f]{12}$/, '');
    expect(named('my kind', '../pg v2')).toBe('my-kind-..-pg-v2');
    expect(named('-x-', '$$')).toBe('x');
    expect(named('a  b', 'c')).toBe('a-b-c');
    expect(named('--x', 'y--')).toBe('x-y');
    expect(named('', '')).toBe('change-set');
    expect(named('k'.repeat(60), 't'.repeat(60))).toBe(`${'k'.repeat(60)}-${'t'.repeat(19)}`);
    const resourceType = seenChangeSet(JSON.stringify({ kind: 'my kind', type: '../pg v2', changes }), '/changes').resourceType;
    expect(resourceType).toBe('my kind/../pg v2');
  });

  it('names a change set of no kind and type by its hash alone', () => {
    for (const document of [{ changes: [] }, { kind: 'managed-resource', changes: [] }, { kind: 'managed-resource', type: 5, changes: [] }, { kind: 5, type: 'postgres', changes: [] }]) {
      const text = JSON.stringify(document);
      const seen = seenChangeSet(text, '/changes');
      expect(seen.name, text).toBe(`change-set-${sha(text).slice(0, 12)}`);
      expect(seen, text).not.toHaveProperty('resourceType');
    }
  });

  it('takes a body that is not JSON for malformed JSON, its changes unknown', () => {
    const text = '{"changes": [';
    expect(seenChangeSet(text, '/changes')).toEqual({
      name: `change-set-${sha(text).slice(0, 12)}`,
      changesError: 'the body is not JSON',
      actions: [],
      sha256: sha(text),
      text,
      badInput: 'malformed-json',
    });
  });

  it('finds the changes at the pointer it is given, and says where it looked when there are none', () => {
    const text = JSON.stringify({ kind: 'managed-resource', type: 'postgres', spec: { changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] } });
    expect(seenChangeSet(text, '/spec/changes').changes).toEqual([{ id: 'shop-db', environment: 'test' }]);
    const missed = seenChangeSet(text, '/changes');
    expect(missed).toMatchObject({ resourceType: 'managed-resource/postgres', changesError: 'no array of changes at /changes', actions: [], badInput: 'invalid-change-set' });
    expect(missed).not.toHaveProperty('changes');
    expect(seenChangeSet(JSON.stringify({ changes: { id: 'a' } }), '/changes').changesError).toBe('no array of changes at /changes');
    expect(seenChangeSet('{"changes": []}', '').changesError).toBe('no array of changes at ""');
    expect(seenChangeSet('[]', '/changes').changesError).toBe('no array of changes at /changes');
  });

  it('reads changes that are a bare array at the root pointer, yet holds the body no change set', () => {
    const seen = seenChangeSet(JSON.stringify([{ id: 'a', environment: 'test', action: 'created' }]), '');
    expect(seen.changes).toEqual([{ id: 'a', environment: 'test' }]);
    expect(seen.badInput).toBe('invalid-change-set');
  });

  it('says a change has no id and environment, keeping the actions read up to it', () => {
    const text = JSON.stringify({ changes: [{ id: 'a', environment: 'test', action: 'created' }, { id: 'b', action: 'removed' }, { id: 'c', environment: 'test', action: 'updated' }] });
    const seen = seenChangeSet(text, '/changes');
    expect(seen).toMatchObject({ changesError: 'a change has no string id and environment', actions: ['created', 'removed'], badInput: 'invalid-change-set' });
    expect(seen).not.toHaveProperty('changes');
    expect(seenChangeSet(JSON.stringify({ changes: ['a'] }), '/changes').changesError).toBe('a change has no string id and environment');
    expect(seenChangeSet(JSON.stringify({ changes: [null] }), '/changes').changesError).toBe('a change has no string id and environment');
    expect(seenChangeSet(JSON.stringify({ changes: [{ id: 'a', environment: 3 }] }), '/changes').changesError).toBe('a change has no string id and environment');
    expect(seenChangeSet(JSON.stringify({ changes: [{ id: 3, environment: 'test' }] }), '/changes').changesError).toBe('a change has no string id and environment');
    // Its kind and type are still told.
    const typed = seenChangeSet(JSON.stringify({ kind: 'managed-resource', type: 'postgres', changes: [{ id: 'a' }] }), '/changes');
    expect(typed).toMatchObject({ resourceType: 'managed-resource/postgres', changesError: 'a change has no string id and environment' });
  });

  it('counts only the actions written as text', () => {
    const text = JSON.stringify({ changes: [{ id: 'a', environment: 'test', action: 5 }, { id: 'b', environment: 'test', action: 'created' }, { id: 'c', environment: 'test' }] });
    expect(seenChangeSet(text, '/changes').actions).toEqual(['created']);
  });

  it('takes JSON whose changes break the contract for an invalid change set, and a valid one for none', () => {
    const change = { id: 'shop-db', environment: 'test', action: 'created' };
    const bad = (changes: unknown): string | undefined => seenChangeSet(JSON.stringify({ kind: 'managed-resource', type: 'postgres', changes }), '/changes').badInput;
    expect(bad([change])).toBeUndefined();
    expect(bad([change, { ...change, environment: 'prod' }])).toBeUndefined();
    expect(bad([change, { ...change, id: 'cache' }])).toBeUndefined();
    expect(bad([{ ...change, properties: {} }])).toBeUndefined();
    for (const action of ['created', 'updated', 'removed']) expect(bad([{ ...change, action }]), action).toBeUndefined();
    expect(bad([])).toBe('invalid-change-set');
    expect(bad([{ ...change, id: '' }])).toBe('invalid-change-set');
    expect(bad([{ ...change, environment: '' }])).toBe('invalid-change-set');
    expect(bad([{ ...change, id: 3 }])).toBe('invalid-change-set');
    expect(bad([{ ...change, environment: ['test'] }])).toBe('invalid-change-set');
    expect(bad([{ ...change, action: 'renamed' }])).toBe('invalid-change-set');
    expect(bad([{ id: 'shop-db', environment: 'test' }])).toBe('invalid-change-set');
    expect(bad([{ ...change, properties: [] }])).toBe('invalid-change-set');
    expect(bad([{ ...change, properties: null }])).toBe('invalid-change-set');
    expect(bad([{ ...change, properties: 'big' }])).toBe('invalid-change-set');
    expect(bad([change, { ...change, action: 'updated' }])).toBe('invalid-change-set');
    expect(bad([change, ['shop-db', 'test']])).toBe('invalid-change-set');
    expect(bad([change, null])).toBe('invalid-change-set');
  });

  it('judges only the changes of a change set, not its other fields', () => {
    const text = JSON.stringify({ kind: 5, type: null, extra: true, changes: [{ id: 'shop-db', environment: 'test', action: 'created' }] });
    expect(seenChangeSet(text, '/changes').badInput).toBeUndefined();
  });

  it('takes JSON that is no object for an invalid change set even when the pointer finds changes in it', () => {
    expect(seenChangeSet('"text"', '/changes').badInput).toBe('invalid-change-set');
    expect(seenChangeSet('null', '/changes').badInput).toBe('invalid-change-set');
    expect(seenChangeSet(JSON.stringify([[{ id: 'a', environment: 'test', action: 'created' }]]), '/0').badInput).toBe('invalid-change-set');
  });
});
