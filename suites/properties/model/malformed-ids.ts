import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { MALFORMED_IDS } from '../../scenarios/malformed-ids.js';
import type { MalformedId } from './case-driver.js';

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID_CHARACTERS = [...'abcdef0123456789-xyz_~.'];

/**
 * Ids that are not UUIDs: the scenario's hand-picked ones (near-UUIDs, a long segment, encoded slashes) and
 * short generated ones from UUID-like characters, which shrink towards one character.
 */
export function malformedIds(): Arbitrary<MalformedId> {
  const generated = fc
    .string({ unit: fc.constantFrom(...ID_CHARACTERS), minLength: 1, maxLength: 40 })
    // Dot segments would be resolved away by the URL, leaving no id at all.
    .filter((raw) => !UUID_TEXT.test(raw) && raw !== '.' && raw !== '..')
    .map((raw): MalformedId => ({ raw, path: encodeURIComponent(raw) }));
  return fc.oneof(fc.constantFrom(...MALFORMED_IDS), generated);
}
