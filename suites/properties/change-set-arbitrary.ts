import fc from 'fast-check';
import type { ChangeKey } from '../../src/core/judge-context.js';
import { changeSetSchema } from '../../src/shapes/generated/schemas.js';
import { isJsonObject, withChanges, type ChangeSetTemplate, type JsonObject } from './change-set-template.js';

// What a change set may hold comes from schemas/change-set.schema.json (through the constants generated from
// it), so that the arbitrary and the published schema cannot drift apart.
const CHANGE_FIELDS = changeSetSchema.$defs.change.properties;

/** The actions of schemas/change-set.schema.json. */
export const ACTIONS = CHANGE_FIELDS.action.enum;

export type GeneratedAction = (typeof ACTIONS)[number];

/** The optional top-level names of a change set (application, environment, kind, type): every property but changes. */
type TopLevelField = Exclude<keyof typeof changeSetSchema.properties, 'changes'>;

const TOP_LEVEL_FIELDS = (Object.keys(changeSetSchema.properties) as Array<keyof typeof changeSetSchema.properties>).filter(
  (field): field is TopLevelField => field !== 'changes',
);

/** The fewest changes a change set holds. */
const MIN_CHANGES = changeSetSchema.properties.changes.minItems;

export type PropertyValue = string | number | boolean | null | PropertyValue[] | { [key: string]: PropertyValue };

export interface GeneratedChange {
  id: string;
  environment: string;
  action: GeneratedAction;
  properties?: Record<string, PropertyValue>;
}

/** A change set as schemas/change-set.schema.json allows it: 1 to 8 changes, (id, environment) pairs unique. */
export interface GeneratedChangeSet extends Partial<Record<TopLevelField, string>> {
  changes: GeneratedChange[];
}

/** The most changes generated; the schema sets no upper bound, this keeps each case quick. */
export const MAX_CHANGES = 8;
/** Deepest nesting inside `properties`; the whole body stays far below what any JSON parser refuses. */
export const MAX_PROPERTY_DEPTH = 3;

// Plain letters and digits come first, so that every shrunk character ends as one of them when it can.
const PLAIN = 'abcdefghijklmnopqrstuvwxyz0123456789';
// Space first and '-' next: a shrunk punctuation character is the first one a provisioner can stumble over.
const PUNCTUATION = [' ', '-', '.', '_', '/', ':', '@', '#', '!', '?', ',', ';', '(', ')', '[', ']', '{', '}', '"', "'", '\\', '%', '&', '+', '=', '*', '~', '`', '^', '|', '<', '>', '$'];

/**
 * One character (one code point) of an id or environment: mostly plain, often punctuation or space, sometimes
 * any printable code point (accents, CJK, right-to-left scripts, symbols outside the BMP). No control
 * characters, no lone surrogates and no combining sequences: all are valid JSON, but a provisioner may
 * fairly normalise them, and a correct provisioner must never fail a property.
 */
export function textUnit(): fc.Arbitrary<string> {
  // Cross-shrinking lets any character shrink to a plain one first, so minimal names read as plain as they can.
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 8, arbitrary: fc.constantFrom(...PLAIN) },
    { weight: 1, arbitrary: fc.constantFrom(...PLAIN.toUpperCase().slice(0, 26)) },
    { weight: 3, arbitrary: fc.constantFrom(...PUNCTUATION) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 1 }) },
  );
}

/**
 * At least `min` items (the schema's minItems or minLength; code points for strings). fast-check shrinks arrays
 * with a minimum length less well (it may keep a last item it could drop), so the minimum is asked for with a
 * filter instead: shrinking then reaches the smallest form.
 */
function atLeast<T extends string | unknown[]>(min: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return arbitrary.filter((value) => (typeof value === 'string' ? [...value].length : value.length) >= min);
}

/** At least one item: pools of ids and environments to draw from. */
function nonEmpty<T extends unknown[]>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return atLeast(1, arbitrary);
}

/** A name at least `minLength` long (a change's id by default): usually short, sometimes long (up to 64 characters), as real ids are. */
export function nameArbitrary(maxLong = 64, minLength: number = CHANGE_FIELDS.id.minLength): fc.Arbitrary<string> {
  const unit = textUnit();
  return atLeast(
    minLength,
    fc.oneof(
      { weight: 3, arbitrary: fc.string({ unit, maxLength: 16 }) },
      { weight: 1, arbitrary: fc.string({ unit, maxLength: maxLong, size: 'medium' }) },
    ),
  );
}

/** Nested JSON for `properties`, bounded in depth and breadth. */
export function propertiesArbitrary(): fc.Arbitrary<Record<string, PropertyValue>> {
  const key = fc.string({ unit: textUnit(), minLength: 0, maxLength: 12 });
  const { value } = fc.letrec<{ value: PropertyValue }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: MAX_PROPERTY_DEPTH - 1 },
      fc.string({ unit: textUnit(), maxLength: 20 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(key, tie('value'), { maxKeys: 3 }),
    ),
  }));
  return fc.dictionary(key, value, { maxKeys: 4 });
}

interface ChangeDraft<P> {
  idIndex: number;
  environmentIndex: number;
  action: GeneratedAction;
  properties: P;
}

/** A change with its (id, environment) pair settled, and whatever its draft says of its properties. */
type PlacedChange<P> = Omit<GeneratedChange, 'properties'> & { properties: P };

/**
 * The changes of a generated change set, as record fields. Ids and environments come from small pools, so
 * that one id shows up in several environments; pairs that repeat are dropped (see `uniqueChanges`).
 * Shrinking goes field by field in this order: fewer changes first, which makes every later step cheaper.
 */
function changeFields<P>(properties: fc.Arbitrary<P>) {
  const draft = fc.record({
    idIndex: fc.nat({ max: 5 }),
    environmentIndex: fc.nat({ max: 2 }),
    action: fc.constantFrom(...ACTIONS),
    properties,
  });
  return {
    // Drafts name distinct pool slots, so that 8 changes stay 8 unless two pool entries happen to be equal.
    drafts: atLeast(MIN_CHANGES, fc.uniqueArray(draft, { maxLength: MAX_CHANGES, selector: (d) => `${d.idIndex}/${d.environmentIndex}` })),
    ids: nonEmpty(fc.array(nameArbitrary(64, CHANGE_FIELDS.id.minLength), { maxLength: 6 })),
    environments: nonEmpty(fc.array(nameArbitrary(24, CHANGE_FIELDS.environment.minLength), { maxLength: 3 })),
  };
}

/**
 * Change sets drawn from the change-set schema alone, top-level fields included: the starting points of bad
 * bodies. Every part shrinks: fewer changes, one id and one environment, shorter and plainer strings, no
 * properties.
 */
export function changeSetArbitrary(): fc.Arbitrary<GeneratedChangeSet> {
  const names = Object.fromEntries(TOP_LEVEL_FIELDS.map((field) => [field, nameArbitrary(40, changeSetSchema.properties[field].minLength)]));
  const topLevel = fc.record(names as Record<TopLevelField, fc.Arbitrary<string>>, { requiredKeys: [] });
  return fc
    .record({ ...changeFields(fc.option(propertiesArbitrary(), { nil: undefined, freq: 3 })), topLevel })
    .map(({ ids, environments, drafts, topLevel: fields }) => ({
      ...fields,
      changes: uniqueChanges(ids, environments, drafts).map(({ properties, ...change }) => ({ ...change, ...(properties !== undefined && { properties }) })),
    }));
}

/** A change made from a template's change: its fields, with a generated id, environment and action. */
export type TemplatedChange = JsonObject & Omit<GeneratedChange, 'properties'>;

/** A change set made from a template: the body as sent, and the changes a final answer must hold results for. */
export interface TemplatedChangeSet {
  /** The name of the change set it was made from. */
  template: string;
  changes: TemplatedChange[];
  /** The template with `changes` at its changes pointer, every other field as the template has it. */
  body: unknown;
}

/**
 * Change sets made from the user's own (`templates`, at least one): each keeps every field of its template
 * but the changes, and each change starts from the template's first one, so a provisioner registered for
 * one resource type never gets a body it may fairly refuse. Ids, environments and actions vary as in
 * `changeSetArbitrary`; properties are the template change's own, or those merged with generated extra keys.
 * Shrinks to one change with the plainest id and environment, the template's properties and the first template.
 */
export function templatedChangeSetArbitrary(templates: readonly ChangeSetTemplate[]): fc.Arbitrary<TemplatedChangeSet> {
  return fc
    .record({ ...changeFields(fc.option(propertiesArbitrary(), { nil: undefined, freq: 3 })), template: fc.constantFrom(...templates) })
    .map(({ ids, environments, drafts, template }) => {
      const changes = uniqueChanges(ids, environments, drafts).map((change) => changeFromTemplate(template.firstChange, change));
      return { template: template.name, changes, body: withChanges(template, changes) };
    });
}

/** The template's change with the generated id, environment and action, and its properties extended by `extras`. */
function changeFromTemplate(templateChange: JsonObject, change: PlacedChange<Record<string, PropertyValue> | undefined>): TemplatedChange {
  const { properties: extras, ...generated } = change;
  const made: TemplatedChange = { ...templateChange, ...generated };
  if (extras === undefined) return made;
  const own = templateChange.properties;
  if (own === undefined) made.properties = extras;
  // The template's own keys keep their values and their place; extras only add keys. Properties that are not
  // an object belong to the user's format and stay as they are.
  else if (isJsonObject(own)) made.properties = Object.fromEntries([...Object.entries(own), ...Object.entries(extras).filter(([key]) => !Object.hasOwn(own, key))]);
  return made;
}

function uniqueChanges<P>(ids: string[], environments: string[], drafts: Array<ChangeDraft<P>>): Array<PlacedChange<P>> {
  const seen = new Set<string>();
  const changes: Array<PlacedChange<P>> = [];
  for (const draft of drafts) {
    const id = ids[draft.idIndex % ids.length]!;
    const environment = environments[draft.environmentIndex % environments.length]!;
    const key = JSON.stringify([id, environment]);
    if (seen.has(key)) continue;
    seen.add(key);
    changes.push({ id, environment, action: draft.action, properties: draft.properties });
  }
  return changes;
}

/** The (id, environment) pairs a final answer must hold one result for. */
export function changeKeys(changeSet: { changes: readonly ChangeKey[] }): ChangeKey[] {
  return changeSet.changes.map(({ id, environment }) => ({ id, environment }));
}
