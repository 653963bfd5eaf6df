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

/** A change set as schemas/change-set.schema.json allows it: usually 1 to 8 changes, now and then up to 32, (id, environment) pairs unique. */
export interface GeneratedChangeSet extends Partial<Record<TopLevelField, string>> {
  changes: GeneratedChange[];
}

/** The most changes a change set usually holds; the schema sets no upper bound, this keeps most cases quick. */
export const MAX_CHANGES = 8;
/** Now and then a change set holds up to this many: provisioners page or batch their work, and that breaks too. */
export const MAX_MANY_CHANGES = 32;
/** Deepest nesting inside `properties`; the whole body stays far below what any JSON parser refuses. */
export const MAX_PROPERTY_DEPTH = 3;

// Plain letters and digits come first, so that every shrunk character ends as one of them when it can.
const PLAIN = 'abcdefghijklmnopqrstuvwxyz0123456789';
// Space first and '-' next: a shrunk punctuation character is the first one a provisioner can stumble over.
const PUNCTUATION = [' ', '-', '.', '_', '/', ':', '@', '#', '!', '?', ',', ';', '(', ')', '[', ']', '{', '}', '"', "'", '\\', '%', '&', '+', '=', '*', '~', '`', '^', '|', '<', '>', '$'];

/** A compatibility character (`ﬁ`, `Ａ`, `丽` U+2F800) comes back from a normalising provisioner as another one. */
function isNormalisationStable(character: string): boolean {
  return character.normalize('NFKC') === character && character.normalize('NFC') === character;
}

/**
 * One character (one code point) of an id or environment: mostly plain, often punctuation or space, sometimes
 * any printable code point (accents, CJK, right-to-left scripts, symbols outside the BMP). No control
 * characters, no lone surrogates, no combining sequences and no code point that Unicode normalisation
 * (NFC or NFKC) changes: all are valid JSON, but a provisioner may fairly normalise them, and a correct
 * provisioner must never fail a property.
 */
export function textUnit(): fc.Arbitrary<string> {
  // Cross-shrinking lets any character shrink to a plain one first, so minimal names read as plain as they can.
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 8, arbitrary: fc.constantFrom(...PLAIN) },
    { weight: 1, arbitrary: fc.constantFrom(...PLAIN.toUpperCase().slice(0, 26)) },
    { weight: 3, arbitrary: fc.constantFrom(...PUNCTUATION) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 1 }).filter(isNormalisationStable) },
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
 * Usually 1 to 8 changes, one time in ten up to 32 (ids past the pool's end get a numbered suffix).
 * Shrinking goes field by field in this order: fewer changes first, which makes every later step cheaper.
 */
function changeFields<P>(properties: fc.Arbitrary<P>) {
  const drafts = (maxLength: number, idSlots: number, size: fc.SizeForArbitrary) =>
    // Drafts name distinct pool slots, so that 8 changes stay 8 unless two pool entries happen to be equal.
    atLeast(
      MIN_CHANGES,
      fc.uniqueArray(
        fc.record({ idIndex: fc.nat({ max: idSlots - 1 }), environmentIndex: fc.nat({ max: ENVIRONMENT_SLOTS - 1 }), action: fc.constantFrom(...ACTIONS), properties }),
        { maxLength, size, selector: (d) => `${d.idIndex}/${d.environmentIndex}` },
      ),
    );
  return {
    drafts: fc.oneof(
      { withCrossShrink: true },
      { weight: 9, arbitrary: drafts(MAX_CHANGES, ID_SLOTS, 'small') },
      // 'max': fast-check's default size would stop far below 32 changes.
      { weight: 1, arbitrary: drafts(MAX_MANY_CHANGES, Math.ceil(MAX_MANY_CHANGES / ENVIRONMENT_SLOTS) + 1, 'max') },
    ),
    ids: nonEmpty(fc.array(nameArbitrary(64, CHANGE_FIELDS.id.minLength), { maxLength: ID_SLOTS })),
    environments: nonEmpty(fc.array(nameArbitrary(24, CHANGE_FIELDS.environment.minLength), { maxLength: ENVIRONMENT_SLOTS })),
  };
}

/** Pool sizes: few enough that ids meet again in other environments. */
const ID_SLOTS = 6;
const ENVIRONMENT_SLOTS = 3;

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
 * What a generated change does with its template change's `properties`: keeps them, adds generated keys,
 * keeps only some keys (bit i of `keep` keeps the template's i-th key), sends `{}`, or sends none. All are
 * valid change sets (`properties` is an optional object); a provisioner that needs a key may answer that
 * change `failed`, but never refuse the call.
 */
export type PropertiesDraft =
  | { kind: 'own' }
  | { kind: 'extended'; extras: Record<string, PropertyValue> }
  | { kind: 'partial'; keep: number }
  | { kind: 'empty' }
  | { kind: 'absent' };

/** Mostly the template's own or extended properties; the rest now and then. Shrinks to the template's own. */
function propertiesDraftArbitrary(): fc.Arbitrary<PropertiesDraft> {
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 4, arbitrary: fc.constant({ kind: 'own' as const }) },
    { weight: 3, arbitrary: propertiesArbitrary().map((extras) => ({ kind: 'extended' as const, extras })) },
    { weight: 1, arbitrary: fc.nat({ max: 0xffff }).map((keep) => ({ kind: 'partial' as const, keep })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'absent' as const }) },
  );
}

/**
 * Change sets made from the user's own (`templates`, at least one): each keeps every field of its template
 * but the changes, and each change starts from the template's first one, so a provisioner registered for
 * one resource type never gets a body it may fairly refuse. Ids, environments and actions vary as in
 * `changeSetArbitrary`; properties as {@link PropertiesDraft} says.
 * Shrinks to one change with the plainest id and environment, the template's properties and the first template.
 */
export function templatedChangeSetArbitrary(templates: readonly ChangeSetTemplate[]): fc.Arbitrary<TemplatedChangeSet> {
  return fc
    .record({ ...changeFields(propertiesDraftArbitrary()), template: fc.constantFrom(...templates) })
    .map(({ ids, environments, drafts, template }) => {
      const changes = uniqueChanges(ids, environments, drafts).map((change) => changeFromTemplate(template.firstChange, change));
      return { template: template.name, changes, body: withChanges(template, changes) };
    });
}

/** The template's change with the generated id, environment and action, and its properties as the draft says. */
function changeFromTemplate(templateChange: JsonObject, change: PlacedChange<PropertiesDraft>): TemplatedChange {
  const { properties: draft, ...generated } = change;
  const { properties: own, ...fields } = templateChange;
  const made: TemplatedChange = { ...fields, ...generated };
  const properties = propertiesFor(own, draft);
  if (properties !== undefined) made.properties = properties;
  return made;
}

function propertiesFor(own: unknown, draft: PropertiesDraft): unknown {
  switch (draft.kind) {
    case 'own':
      return own;
    case 'absent':
      return undefined;
    case 'empty':
      return {};
    case 'extended':
      if (own === undefined) return draft.extras;
      // The template's own keys keep their values and their place; extras only add keys. Properties that are
      // not an object belong to the user's format and stay as they are.
      return isJsonObject(own) ? Object.fromEntries([...Object.entries(own), ...Object.entries(draft.extras).filter(([key]) => !Object.hasOwn(own, key))]) : own;
    case 'partial':
      return isJsonObject(own) ? Object.fromEntries(Object.entries(own).filter((_, i) => (draft.keep & (1 << (i % 16))) !== 0)) : own;
  }
}

function uniqueChanges<P>(ids: string[], environments: string[], drafts: Array<ChangeDraft<P>>): Array<PlacedChange<P>> {
  const seen = new Set<string>();
  const changes: Array<PlacedChange<P>> = [];
  for (const draft of drafts) {
    // Slots past the pool's end reuse a pool id with a suffix, so that up to 32 changes stay distinct.
    const lap = Math.floor(draft.idIndex / ids.length);
    const id = lap === 0 ? ids[draft.idIndex]! : `${ids[draft.idIndex % ids.length]!}-${lap}`;
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
