/** A place in a body: field names and array indexes, from the body's top. */
export type FieldPath = ReadonlyArray<string | number>;

/** What a JSON value is, for sentences such as `results is an object, not an array`. */
export function describeType(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** `id is missing`, `outputs is an array, not an object`: a field that does not have the expected type. */
export function fieldNote(field: string, value: unknown, expected: string): string {
  return value === undefined ? `${field} is missing` : `${field} is ${describeType(value)}, not ${expected}`;
}

/** `types[0].kind`: how a sentence names a field. */
export function fieldName(path: FieldPath): string {
  return path.map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : i === 0 ? segment : `.${segment}`)).join('');
}

/** A JSON Schema type as a sentence names it: `a string`, `an array`. */
export function typeName(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
