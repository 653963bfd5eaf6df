import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  commonPrefixLength,
  commonSuffixLength,
  findPatterns,
  longestRun,
  parseCanonicalUuid,
  soundUuid,
  uuidProblem,
  versionMeaning,
} from '../../src/rules/support/uuid.js';

const V4 = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';

describe('parseCanonicalUuid', () => {
  it('reads version, variant and the hex digits', () => {
    expect(parseCanonicalUuid(V4)).toEqual({ hex: '6f1c2a3e8b4d4e5f9a7b1c2d3e4f5a6b', version: 4, variant: 'rfc9562', nil: false, max: false });
  });

  it('accepts upper case and gives the same hex digits', () => {
    expect(parseCanonicalUuid(V4.toUpperCase())?.hex).toBe('6f1c2a3e8b4d4e5f9a7b1c2d3e4f5a6b');
  });

  it('recognises the nil and max UUIDs', () => {
    expect(parseCanonicalUuid('00000000-0000-0000-0000-000000000000')?.nil).toBe(true);
    expect(parseCanonicalUuid('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF')?.max).toBe(true);
  });

  it('names each variant', () => {
    expect(parseCanonicalUuid('6f1c2a3e-8b4d-4e5f-1a7b-1c2d3e4f5a6b')?.variant).toBe('ncs');
    expect(parseCanonicalUuid('6f1c2a3e-8b4d-4e5f-ba7b-1c2d3e4f5a6b')?.variant).toBe('rfc9562');
    expect(parseCanonicalUuid('6f1c2a3e-8b4d-4e5f-ca7b-1c2d3e4f5a6b')?.variant).toBe('microsoft');
    expect(parseCanonicalUuid('6f1c2a3e-8b4d-4e5f-ea7b-1c2d3e4f5a6b')?.variant).toBe('future');
  });

  it('rejects other forms', () => {
    for (const text of ['', 'not-a-uuid', `{${V4}}`, `urn:uuid:${V4}`, V4.replaceAll('-', ''), ` ${V4}`, `${V4}0`, '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6g']) {
      expect(parseCanonicalUuid(text)).toBeUndefined();
    }
  });
});

describe('uuidProblem', () => {
  it('finds nothing wrong with a sound UUID in either case', () => {
    expect(uuidProblem(V4)).toBeUndefined();
    expect(uuidProblem(V4.toUpperCase())).toBeUndefined();
    expect(soundUuid(V4)?.version).toBe(4);
  });

  it('explains the usual near misses', () => {
    expect(uuidProblem(`{${V4}}`)).toMatch(/braces/);
    expect(uuidProblem(`urn:uuid:${V4}`)).toMatch(/URN/);
    expect(uuidProblem(V4.replaceAll('-', ''))).toMatch(/no dashes/);
    expect(uuidProblem(` ${V4} `)).toMatch(/white space/);
    expect(uuidProblem('')).toMatch(/empty/);
    expect(uuidProblem('op-1')).toMatch(/8-4-4-4-12/);
  });

  it('rejects nil, max and foreign variants', () => {
    expect(uuidProblem('00000000-0000-0000-0000-000000000000')).toMatch(/nil UUID/);
    expect(uuidProblem('ffffffff-ffff-ffff-ffff-ffffffffffff')).toMatch(/max UUID/);
    expect(uuidProblem('6f1c2a3e-8b4d-4e5f-ca7b-1c2d3e4f5a6b')).toMatch(/Microsoft variant.*"c"/);
    expect(soundUuid('00000000-0000-0000-0000-000000000000')).toBeUndefined();
  });
});

describe('versionMeaning', () => {
  it('says where the bits come from', () => {
    expect(versionMeaning(1)).toMatch(/time and MAC/);
    expect(versionMeaning(3)).toMatch(/name-based/);
    expect(versionMeaning(5)).toMatch(/name-based/);
    expect(versionMeaning(6)).toMatch(/time and MAC/);
    expect(versionMeaning(7)).toMatch(/time-ordered/);
    expect(versionMeaning(8)).toMatch(/custom/);
    expect(versionMeaning(0)).toMatch(/not defined/);
  });
});

describe('pattern helpers', () => {
  it('measures shared prefixes, suffixes and runs', () => {
    expect(commonPrefixLength('abcdef', 'abcxef')).toBe(3);
    expect(commonSuffixLength('abcdef', 'xbcdef')).toBe(5);
    expect(commonPrefixLength('abc', 'abc')).toBe(3);
    expect(longestRun('ab000c00')).toEqual({ digit: '0', length: 3 });
    expect(longestRun('')).toEqual({ digit: '', length: 0 });
  });

  it('finds a shared prefix, a shared suffix and a long run', () => {
    const hexes = [
      '123456789abc4def8123456789abcdef',
      '123456789abc4def9fedcba987654321', // prefix with 0
      '0f1e2d3c4b5a49788a1b2c3d4e5f6a7b',
      'a9b8c7d6e5f44a3b9a1b2c3d4e5f6a7b', // suffix with 2
      'd3b07384d1134ec49f000000000000e7', // run of zeros
    ];
    const patterns = findPatterns(hexes);
    expect(patterns.map((p) => [p.kind, p.ids])).toEqual([
      ['prefix', [1, 0]],
      ['suffix', [3, 2]],
      ['run', [4]],
    ]);
    expect(patterns[0]!.description).toBe('share their first 16 hex digits (123456789abc4def)');
    expect(patterns[2]!.description).toBe('has 12 "0" digits in a row');
  });

  it('pairs each id of a counter with one earlier id only', () => {
    const hexes = ['1', '2', '3', '4'].map((n) => `c0ffee12345640008${n}7a6b5c4d3e2f1a`);
    const prefixes = findPatterns(hexes).filter((p) => p.kind === 'prefix');
    expect(prefixes.map((p) => p.ids)).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
  });

  it('raises no false alarm on 500 random v4 ids', () => {
    const hexes = Array.from({ length: 500 }, () => parseCanonicalUuid(randomUUID())!.hex);
    expect(findPatterns(hexes)).toEqual([]);
  });
});
