import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { nestsDeeperThan } from '../../src/core/json-depth.js';
import { MAX_JSON_DEPTH, parseBodyJson } from '../../src/transcript/json-body.js';
import { textNestsDeeperThan } from '../../src/transcript/text-depth.js';

const TOO_DEEP = `the JSON nests deeper than ${MAX_JSON_DEPTH} levels, more than the kit reads`;

describe('textNestsDeeperThan', () => {
  it('counts arrays and objects in the text, not brackets inside strings', () => {
    expect(textNestsDeeperThan('"[[[["', 0)).toBe(false);
    expect(textNestsDeeperThan('[]', 0)).toBe(true);
    expect(textNestsDeeperThan('[]', 1)).toBe(false);
    expect(textNestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(textNestsDeeperThan('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(textNestsDeeperThan('["\\"[[", {"k\\\\": "]]"}]', 2)).toBe(false);
    expect(textNestsDeeperThan('[[], [], [[]]]', 2)).toBe(true);
  });

  it('agrees with the depth of the parsed value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.nat({ max: 7 }), (value, limit) => {
        expect(textNestsDeeperThan(JSON.stringify(value), limit)).toBe(nestsDeeperThan(value, limit));
        expect(textNestsDeeperThan(JSON.stringify(value, null, 2), limit)).toBe(nestsDeeperThan(value, limit));
      }),
    );
  });
});

describe('parseBodyJson', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses a body nested 200,000 deep from its text, with the same message, without parsing it', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(parseBodyJson(deep, false)).toEqual({ ok: false, error: TOO_DEEP });
    expect(parse).not.toHaveBeenCalled();
  });

  it('parses a body nested exactly as deep as the limit', () => {
    const limit = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(parseBodyJson(limit, false).ok).toBe(true);
    expect(parseBodyJson(`[${limit}]`, false)).toEqual({ ok: false, error: TOO_DEEP });
  });

  it('still says why a shallow body is not JSON', () => {
    const parsed = parseBodyJson('{"outcome": ', false);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).not.toBe(TOO_DEEP);
  });
});
