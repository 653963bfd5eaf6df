import { describe, expect, it } from 'vitest';
import { checkChangeSet } from '../../src/reference/change-set.js';
import { hashedUuid, isUuid, timeOrderedUuid } from '../../src/reference/operation-ids.js';

const change = (id: string, environment = 'test', action = 'created') => ({ id, environment, action });

describe('checkChangeSet', () => {
  it('accepts a change set without the optional top-level fields and keeps what it reads', () => {
    const checked = checkChangeSet({ changes: [{ ...change('shop-db'), properties: { size: 'small' } }], extra: true });
    expect(checked).toEqual({ ok: true, changeSet: { changes: [{ id: 'shop-db', environment: 'test', action: 'created', properties: { size: 'small' } }] } });
  });

  it('accepts the same id in two environments but not twice in one', () => {
    expect(checkChangeSet({ changes: [change('a', 'test'), change('a', 'prod')] }).ok).toBe(true);
    expect(checkChangeSet({ changes: [change('a'), change('b'), change('a')] })).toEqual({
      ok: false,
      error: 'changes[2] repeats id "a" in environment "test"',
    });
  });

  it.each([
    [null, 'the body must be a JSON object'],
    [{ changes: 'x' }, 'changes must be a non-empty array'],
    [{ type: ['postgres'], changes: [change('a')] }, 'type must be a non-empty string when present'],
    [{ kind: '', changes: [change('a')] }, 'kind must be a non-empty string when present'],
    [{ changes: [7] }, 'changes[0] must be an object'],
    [{ changes: [change('')] }, 'changes[0].id must be a non-empty string'],
    [{ changes: [{ id: 'a', action: 'created' }] }, 'changes[0].environment must be a non-empty string'],
    [{ changes: [change('a', 'test', 'CREATED')] }, 'changes[0].action must be one of created, updated, removed'],
    [{ changes: [{ ...change('a'), properties: [] }] }, 'changes[0].properties must be an object when present'],
  ])('rejects %j: %s', (value, error) => {
    expect(checkChangeSet(value)).toEqual({ ok: false, error });
  });
});

describe('operation id sources', () => {
  it('derives the same v4-shaped UUID from the same text, and another from other text', () => {
    const id = hashedUuid('apply\n{"changes":[]}');
    expect(id).toBe(hashedUuid('apply\n{"changes":[]}'));
    expect(id).not.toBe(hashedUuid('plan\n{"changes":[]}'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('writes the milliseconds into the first 48 bits of a version 7 UUID', () => {
    const id = timeOrderedUuid(0x0123456789ab);
    expect(id).toMatch(/^01234567-89ab-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isUuid(id)).toBe(true);
    expect(isUuid('not-a-uuid')).toBe(false);
  });
});
