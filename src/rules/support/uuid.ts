/** UUID analysis for operationIds: canonical form, version, variant, and patterns a random source would not show. */

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX32 = /^[0-9a-f]{32}$/i;

/** The layout named by the variant bits (the high bits of the first digit of the fourth group). */
export type UuidVariant = 'ncs' | 'rfc9562' | 'microsoft' | 'future';

export interface UuidAnalysis {
  /** The 32 hex digits, lower case, dashes removed. */
  hex: string;
  version: number;
  variant: UuidVariant;
  nil: boolean;
  max: boolean;
}

function variantOf(digit: number): UuidVariant {
  if (digit < 0x8) return 'ncs';
  if (digit < 0xc) return 'rfc9562';
  if (digit < 0xe) return 'microsoft';
  return 'future';
}

/** Reads a UUID in the canonical 8-4-4-4-12 text form; either case is accepted, as RFC 9562 allows on input. */
export function parseCanonicalUuid(text: string): UuidAnalysis | undefined {
  if (!CANONICAL.test(text)) return undefined;
  const hex = text.replaceAll('-', '').toLowerCase();
  return {
    hex,
    version: parseInt(hex[12]!, 16),
    variant: variantOf(parseInt(hex[16]!, 16)),
    nil: hex === '0'.repeat(32),
    max: hex === 'f'.repeat(32),
  };
}

/** Why a text is not in canonical form, with a hint for the usual near misses. */
function formProblem(text: string): string {
  if (text === '') return 'is empty';
  // The text itself is not canonical here, so a canonical trimmed text had white space around it.
  if (CANONICAL.test(text.trim())) return 'has white space around the UUID';
  if (text.startsWith('{') && text.endsWith('}') && CANONICAL.test(text.slice(1, -1))) return 'is wrapped in braces';
  if (/^urn:uuid:/i.test(text)) return 'is a URN, not the bare 8-4-4-4-12 form';
  if (HEX32.test(text)) return 'has 32 hex digits but no dashes (the canonical form is 8-4-4-4-12)';
  return 'is not a UUID in the canonical 8-4-4-4-12 hex form';
}

/** The variants an operationId must not have, named for notes. */
const VARIANT_TEXT: Record<Exclude<UuidVariant, 'rfc9562'>, string> = {
  ncs: 'the reserved NCS variant',
  microsoft: 'the reserved Microsoft variant',
  future: 'the variant reserved for future use',
};

/** Why an operationId fails as a UUID (form, variant, nil, max), or undefined when it is a sound one. */
export function uuidProblem(text: string): string | undefined {
  const uuid = parseCanonicalUuid(text);
  if (!uuid) return formProblem(text);
  if (uuid.nil) return 'is the nil UUID (all zeros)';
  if (uuid.max) return 'is the max UUID (all f)';
  if (uuid.variant !== 'rfc9562') {
    return `has ${VARIANT_TEXT[uuid.variant]} (fourth group starts with "${uuid.hex[16]}", expected 8, 9, a or b)`;
  }
  return undefined;
}

/** A UUID that passes the form, variant and nil/max checks, analysed; undefined otherwise. */
export function soundUuid(text: string): UuidAnalysis | undefined {
  return uuidProblem(text) === undefined ? parseCanonicalUuid(text) : undefined;
}

/** What a UUID version means for where its bits come from. */
export function versionMeaning(version: number): string {
  switch (version) {
    case 1:
      return 'time and MAC address based';
    case 2:
      return 'DCE security, time and MAC address based';
    case 3:
      return 'name-based (MD5): the same name always gives the same id';
    case 4:
      return 'random';
    case 5:
      return 'name-based (SHA-1): the same name always gives the same id';
    case 6:
      return 'time and MAC address based, reordered for sorting';
    case 7:
      return 'time-ordered: the leading digits are a timestamp';
    case 8:
      return 'custom: its layout is up to the vendor, nothing promises randomness';
    default:
      return 'not defined by RFC 9562';
  }
}

// For random v4 ids these lengths make a false alarm negligible: a shared 12-digit prefix or suffix
// is a 48-bit coincidence per pair, and a run of 12 equal digits a 44-bit one per position.
export const SHARED_DIGITS_LIMIT = 12;
export const RUN_LIMIT = 12;

export function commonPrefixLength(a: string, b: string): number {
  let n = 0;
  // Past the end of the shorter string its character is undefined, which ends the loop.
  while (n < a.length && a[n] === b[n]) n++;
  return n;
}

export function commonSuffixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/** The longest run of one repeated character in a string. */
export function longestRun(text: string): { digit: string; length: number } {
  let best = { digit: '', length: 0 };
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    // text[text.length] is undefined, so the last run is closed too.
    if (text[i] !== text[start]) {
      if (i - start > best.length) best = { digit: text[start]!, length: i - start };
      start = i;
    }
  }
  return best;
}

/** A visible pattern: `ids` are indexes into the list given to findPatterns, the key one first. */
export interface UuidPattern {
  kind: 'prefix' | 'suffix' | 'run';
  ids: number[];
  description: string;
}

/**
 * Patterns among distinct ids given as 32 hex digits: two ids sharing a long prefix or suffix, or one
 * id with a long run of one digit. Each id is paired only with the first earlier id it matches, so a
 * counter-like scheme gives one finding per id, not one per pair.
 */
export function findPatterns(hexes: readonly string[]): UuidPattern[] {
  const patterns: UuidPattern[] = [];
  hexes.forEach((hex, i) => {
    const prefixMate = hexes.findIndex((other, j) => j < i && commonPrefixLength(hex, other) >= SHARED_DIGITS_LIMIT);
    if (prefixMate >= 0) {
      const n = commonPrefixLength(hex, hexes[prefixMate]!);
      patterns.push({ kind: 'prefix', ids: [i, prefixMate], description: `share their first ${n} hex digits (${hex.slice(0, n)})` });
    }
    const suffixMate = hexes.findIndex((other, j) => j < i && commonSuffixLength(hex, other) >= SHARED_DIGITS_LIMIT);
    if (suffixMate >= 0) {
      const n = commonSuffixLength(hex, hexes[suffixMate]!);
      patterns.push({ kind: 'suffix', ids: [i, suffixMate], description: `share their last ${n} hex digits (${hex.slice(-n)})` });
    }
    const run = longestRun(hex);
    if (run.length >= RUN_LIMIT) {
      patterns.push({ kind: 'run', ids: [i], description: `has ${run.length} "${run.digit}" digits in a row` });
    }
  });
  return patterns;
}
