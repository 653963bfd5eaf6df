import { describe, expect, it } from 'vitest';
import { commonPrefixLength, commonSuffixLength, findPatterns, longestRun, parseCanonicalUuid, uuidProblem, versionMeaning } from '../../src/rules/support/uuid.js';

/** The UUID checks at their edges: near misses that are almost one of the known forms, and the pattern limits exactly. */

const V4 = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const NOT_CANONICAL = 'is not a UUID in the canonical 8-4-4-4-12 hex form';

describe('uuidProblem at the edges of each near miss', () => {
  it('names white space only when the trimmed text is a UUID', () => {
    expect(uuidProblem(`\t${V4}\n`)).toBe('has white space around the UUID');
    expect(uuidProblem(' op-1 ')).toBe(NOT_CANONICAL);
  });

  it('names braces only around a UUID, with both braces', () => {
    expect(uuidProblem(`{${V4}}`)).toBe('is wrapped in braces');
    expect(uuidProblem(`x${V4}y`)).toBe(NOT_CANONICAL);
    expect(uuidProblem(`x${V4}}`)).toBe(NOT_CANONICAL);
    expect(uuidProblem(`{${V4}x`)).toBe(NOT_CANONICAL);
    expect(uuidProblem('{op-1}')).toBe(NOT_CANONICAL);
  });

  it('names a URN only when the text starts with the URN prefix', () => {
    expect(uuidProblem(`URN:UUID:${V4}`)).toBe('is a URN, not the bare 8-4-4-4-12 form');
    expect(uuidProblem(`id urn:uuid:${V4}`)).toBe(NOT_CANONICAL);
  });

  it('names missing dashes for exactly 32 hex digits, no more', () => {
    const hex = V4.replaceAll('-', '');
    expect(uuidProblem(hex.toUpperCase())).toBe('has 32 hex digits but no dashes (the canonical form is 8-4-4-4-12)');
    expect(uuidProblem(`${hex}0`)).toBe(NOT_CANONICAL);
    expect(uuidProblem(hex.slice(1))).toBe(NOT_CANONICAL);
    expect(uuidProblem('op-1')).toBe(NOT_CANONICAL);
  });

  it('names nil and max only for all 32 digits alike', () => {
    expect(uuidProblem('00000000-0000-0000-0000-000000000000')).toBe('is the nil UUID (all zeros)');
    expect(uuidProblem('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF')).toBe('is the max UUID (all f)');
    // One digit away from nil and max: judged by their variant like any other UUID.
    expect(parseCanonicalUuid('00000000-0000-0000-0000-000000000001')).toMatchObject({ nil: false, max: false });
    expect(parseCanonicalUuid('ffffffff-ffff-ffff-ffff-fffffffffffe')).toMatchObject({ nil: false, max: false });
    expect(uuidProblem('10000000-0000-0000-0000-000000000000')).toMatch(/NCS variant/);
  });

  it('explains each foreign variant with the digit found', () => {
    expect(uuidProblem('6f1c2a3e-8b4d-4e5f-7a7b-1c2d3e4f5a6b')).toBe(
      'has the reserved NCS variant (fourth group starts with "7", expected 8, 9, a or b)',
    );
    expect(uuidProblem('6f1c2a3e-8b4d-4e5f-da7b-1c2d3e4f5a6b')).toBe(
      'has the reserved Microsoft variant (fourth group starts with "d", expected 8, 9, a or b)',
    );
    expect(uuidProblem('6f1c2a3e-8b4d-4e5f-Ea7b-1c2d3e4f5a6b')).toBe(
      'has the variant reserved for future use (fourth group starts with "e", expected 8, 9, a or b)',
    );
  });

  it('takes every RFC 9562 variant digit, and only those', () => {
    for (const digit of ['8', '9', 'a', 'b']) expect(uuidProblem(`6f1c2a3e-8b4d-4e5f-${digit}a7b-1c2d3e4f5a6b`)).toBeUndefined();
    const variants = ['7', '8', 'b', 'c', 'd', 'e', 'f'].map((digit) => parseCanonicalUuid(`6f1c2a3e-8b4d-4e5f-${digit}a7b-1c2d3e4f5a6b`)?.variant);
    expect(variants).toEqual(['ncs', 'rfc9562', 'rfc9562', 'microsoft', 'microsoft', 'future', 'future']);
  });

  it('reads the version from the first digit of the third group', () => {
    expect(parseCanonicalUuid('6f1c2a3e-8b4d-7e5f-9a7b-1c2d3e4f5a6b')?.version).toBe(7);
    expect(parseCanonicalUuid('6f1c2a3e-8b4d-fe5f-9a7b-1c2d3e4f5a6b')?.version).toBe(15);
  });
});

describe('versionMeaning for every version', () => {
  it('says where the bits of each version come from', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(versionMeaning)).toEqual([
      'time and MAC address based',
      'DCE security, time and MAC address based',
      'name-based (MD5): the same name always gives the same id',
      'random',
      'name-based (SHA-1): the same name always gives the same id',
      'time and MAC address based, reordered for sorting',
      'time-ordered: the leading digits are a timestamp',
      'custom: its layout is up to the vendor, nothing promises randomness',
      'not defined by RFC 9562',
    ]);
  });
});

describe('pattern helpers at their limits', () => {
  it('measures nothing in common for strings that differ at once, whichever is longer', () => {
    expect(commonPrefixLength('abc', 'xyz')).toBe(0);
    expect(commonPrefixLength('abcd', 'ab')).toBe(2);
    expect(commonPrefixLength('ab', 'abcd')).toBe(2);
    expect(commonSuffixLength('abc', 'xyz')).toBe(0);
    expect(commonSuffixLength('xxcd', 'cd')).toBe(2);
    expect(commonSuffixLength('cd', 'xxcd')).toBe(2);
    expect(commonSuffixLength('abc', 'abc')).toBe(3);
  });

  it('counts a run that ends the text', () => {
    expect(longestRun('ab000')).toEqual({ digit: '0', length: 3 });
    expect(longestRun('7')).toEqual({ digit: '7', length: 1 });
    expect(longestRun('aabbb')).toEqual({ digit: 'b', length: 3 });
    // Of two runs as long, the first is named.
    expect(longestRun('aabb')).toEqual({ digit: 'a', length: 2 });
  });

  it('finds a prefix shared by exactly 12 digits, not by 11', () => {
    const base = '0123456789ab4def8123456789abcdef';
    const twelve = '0123456789ab5e2c9f1d8a7b6c5d4e3f';
    const eleven = '0123456789a0c2d39e8f7a6b5c4d3e21';
    expect(findPatterns([base, twelve])).toEqual([{ kind: 'prefix', ids: [1, 0], description: 'share their first 12 hex digits (0123456789ab)' }]);
    expect(findPatterns([base, eleven])).toEqual([]);
  });

  it('finds a suffix shared by exactly 12 digits with the first id, not by 11', () => {
    const base = 'fedcba98765443218123456789abcdef';
    const twelve = '0f1e2d3c4b5a49789a1b456789abcdef';
    const eleven = '0f1e2d3c4b5a49789a1b056789abcdef';
    expect(findPatterns([base, twelve])).toEqual([{ kind: 'suffix', ids: [1, 0], description: 'share their last 12 hex digits (456789abcdef)' }]);
    expect(findPatterns([base, eleven])).toEqual([]);
  });

  it('finds a run of exactly 12 equal digits, not 11', () => {
    expect(findPatterns(['d3b07384d1134ec49f000000000000e7'])).toEqual([{ kind: 'run', ids: [0], description: 'has 12 "0" digits in a row' }]);
    expect(findPatterns(['d3b07384d1134ec49f00000000000be7'])).toEqual([]);
  });
});
