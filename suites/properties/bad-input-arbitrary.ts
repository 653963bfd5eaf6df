import fc from 'fast-check';
import { ACTIONS, changeSetArbitrary, nameArbitrary, textUnit } from './change-set-arbitrary.js';

/** A body to POST, and what is wrong with it in a few words. */
export interface BadBody {
  what: string;
  text: string;
}

/** Deepest nesting a bad body reaches: far past what a recursive parser survives. */
export const MAX_NESTING = 10_000;

/** Whether a text parses as JSON. */
export function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const validText = changeSetArbitrary().map((changeSet) => JSON.stringify(changeSet));
// Integers are biased towards both ends, so the full depth comes up too; one arbitrary keeps shrinking exact.
const nesting = fc.integer({ min: 1, max: MAX_NESTING });

/**
 * Bodies that are not JSON: a change set cut short, with single quotes, with garbage after it, an empty or
 * blank body, thousands of unclosed brackets, or plain text. Invalid UTF-8 cannot travel in a string body,
 * so it is left out. Every value is checked not to parse.
 */
export function malformedJsonArbitrary(): fc.Arbitrary<BadBody> {
  const shapes: Array<fc.Arbitrary<BadBody>> = [
    fc
      .tuple(validText, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }))
      .map(([text, at]) => ({ what: 'a change set cut short', text: text.slice(0, Math.floor(at * text.length)) })),
    validText.map((text) => ({ what: 'a change set with single quotes', text: text.replaceAll('"', "'") })),
    fc
      .tuple(validText, fc.constantFrom('}', ',', 'x', ']', '{}', ' garbage', '\u0000', '"'), fc.string({ maxLength: 8 }))
      .map(([text, start, rest]) => ({ what: 'a change set with text after it', text: `${text}${start}${rest}` })),
    fc.constantFrom('', ' ', '\n', '\t \r\n').map((text) => ({ what: 'an empty or blank body', text })),
    nesting.map((depth) => ({ what: `${depth} unclosed brackets`, text: '['.repeat(depth) })),
    fc.string({ unit: textUnit(), minLength: 1, maxLength: 40 }).map((text) => ({ what: 'plain text', text })),
    fc.constantFrom('{changes: []}', "{'changes': []}", '{"changes": [1,]}', '{"changes": [] /* note */}', 'NaN', 'undefined', '{"a": 01}').map((text) => ({
      what: 'JavaScript that is not JSON',
      text,
    })),
  ];
  return fc.oneof(...shapes).filter((body) => !parses(body.text));
}

const notAString = fc.oneof(fc.constant(''), fc.integer(), fc.constant(null), fc.boolean(), fc.constant([]), fc.constant({}));
// The actions are the change-set schema's (through ACTIONS), so a new action is never sent as a wrong one.
const notAnAction = nameArbitrary(20).filter((text) => !(ACTIONS as readonly string[]).includes(text));
const fieldName = fc.constantFrom('id', 'environment');

interface Mutated {
  what: string;
  value: unknown;
}

/** One change of a generated change set, picked by `pick`, changed by `mutate` with a generated parameter. */
function withChange<P>(param: fc.Arbitrary<P>, what: (p: P) => string, mutate: (change: Record<string, unknown>, p: P) => void): fc.Arbitrary<Mutated> {
  return fc.tuple(changeSetArbitrary(), fc.nat(), param).map(([set, pick, p]) => {
    const copy = structuredClone(set);
    mutate(copy.changes[pick % copy.changes.length] as unknown as Record<string, unknown>, p);
    return { what: what(p), value: copy };
  });
}

/**
 * A change set with one thing made wrong: every mutation breaks what the contract says of changes, whatever
 * the change set was. Top-level fields are left alone: the contract does not say what a provisioner makes of
 * them, so a correct one may ignore them.
 */
function mutated(): fc.Arbitrary<Mutated> {
  const changeSet = changeSetArbitrary();
  const shapes: Array<fc.Arbitrary<Mutated>> = [
    changeSet.map(({ changes: _changes, ...rest }) => ({ what: 'no changes field', value: rest })),
    changeSet.map((set) => ({ what: 'changes is empty', value: { ...set, changes: [] } })),
    fc.tuple(changeSet, fc.oneof(fc.constant(null), fc.integer(), fc.constant('created'), fc.constant({}))).map(([set, changes]) => ({
      what: 'changes is not an array',
      value: { ...set, changes },
    })),
    withChange(fieldName, (field) => `a change without ${field}`, (change, field) => delete change[field]),
    withChange(
      fc.tuple(fieldName, notAString),
      ([field, value]) => `a change whose ${field} is ${JSON.stringify(value)}`,
      (change, [field, value]) => {
        change[field] = value;
      },
    ),
    withChange(fc.constant('action'), () => 'a change without action', (change) => delete change.action),
    withChange(
      notAnAction,
      (action) => `a change whose action is ${JSON.stringify(action)}`,
      (change, action) => {
        change.action = action;
      },
    ),
    withChange(
      fc.oneof(fc.constant([]), fc.constant('small'), fc.integer(), fc.constant(null)),
      (properties) => `a change whose properties are ${JSON.stringify(properties)}`,
      (change, properties) => {
        change.properties = properties;
      },
    ),
    fc.tuple(changeSet, fc.nat(), fc.constantFrom(...ACTIONS)).map(([set, pick, action]) => {
      const twin = set.changes[pick % set.changes.length]!;
      return {
        what: `id ${JSON.stringify(twin.id)} twice in environment ${JSON.stringify(twin.environment)}`,
        value: { ...set, changes: [...set.changes, { id: twin.id, environment: twin.environment, action }] },
      };
    }),
    fc.tuple(changeSet, fc.boolean()).map(([set, inArray]) => ({
      what: inArray ? 'the changes sent as a bare array' : 'the change set wrapped in another object',
      value: inArray ? set.changes : { changeSet: set },
    })),
  ];
  return fc.oneof(...shapes);
}

const notAnObject = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.string({ unit: textUnit(), maxLength: 20 }),
  fc.array(fc.oneof(fc.integer(), fc.constant(null)), { maxLength: 4 }),
);

/**
 * Bodies that are JSON but no change set: a change set with one thing wrong (missing or wrong-typed
 * fields, empty changes, an action outside the three, a repeated id and environment), a body that is not
 * an object, or arrays nested thousands deep.
 */
export function invalidChangeSetArbitrary(): fc.Arbitrary<BadBody> {
  return fc.oneof(
    { weight: 6, arbitrary: mutated().map(({ what, value }) => ({ what, text: JSON.stringify(value) })) },
    { weight: 1, arbitrary: notAnObject.map((value) => ({ what: `a body that is ${describe(value)}`, text: JSON.stringify(value) })) },
    { weight: 2, arbitrary: nesting.map((depth) => ({ what: `arrays nested ${depth} deep`, text: '['.repeat(depth) + ']'.repeat(depth) })) },
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
