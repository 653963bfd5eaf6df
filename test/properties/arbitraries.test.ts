import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020.js';
import { jsonDepth } from '../../src/core/json-depth.js';
import { bundledChangeSetFiles, loadChangeSets, parseChangeSet } from '../../src/config/change-sets.js';
import { changeSetArbitrary, MAX_CHANGES, MAX_MANY_CHANGES, templatedChangeSetArbitrary, type GeneratedChangeSet, type TemplatedChangeSet } from '../../suites/properties/change-set-arbitrary.js';
import { isJsonObject, templateOf, type ChangeSetTemplate, type JsonObject } from '../../suites/properties/change-set-template.js';
import { invalidChangeSetArbitrary, malformedJsonArbitrary, MAX_NESTING, parses } from '../../suites/properties/bad-input-arbitrary.js';
import { ROOT } from '../e2e/run-cli.js';

const ajv = new Ajv2020.default({ allErrors: true, strict: false });
const isChangeSet = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'change-set.schema.json'), 'utf8')) as object);


/** What CHANGE-SET.md asks beyond the schema: each (id, environment) pair once. */
function pairsUnique(value: unknown): boolean {
  const changes = (value as { changes: Array<{ id: string; environment: string }> }).changes;
  const pairs = changes.map((c) => JSON.stringify([c.id, c.environment]));
  return new Set(pairs).size === pairs.length;
}

const names = (sets: Array<Pick<GeneratedChangeSet | TemplatedChangeSet, 'changes'>>): string[] => sets.flatMap((set) => set.changes.flatMap((c) => [c.id, c.environment]));

/** The changes of many generated sets cover every action, count, kind of name and an id in several environments. */
function expectChangesToVary(sets: Array<Pick<GeneratedChangeSet | TemplatedChangeSet, 'changes'>>): void {
  const all = names(sets);
    expect(new Set(sets.flatMap((s) => s.changes.map((c) => c.action)))).toEqual(new Set(['created', 'updated', 'removed']));
    expect(sets.some((s) => s.changes.length === 1)).toBe(true);
    expect(sets.some((s) => s.changes.length === MAX_CHANGES)).toBe(true);
    expect(all.some((name) => name.includes(' '))).toBe(true);
    expect(all.some((name) => /[^\P{P}-]/u.test(name))).toBe(true);
    expect(all.some((name) => /[^\x20-\x7e]/.test(name))).toBe(true);
    expect(all.some((name) => /[\u{10000}-\u{10ffff}]/u.test(name))).toBe(true);
    expect(all.some((name) => Array.from(name).length > 20)).toBe(true);
    expect(sets.some((s) => new Set(s.changes.map((c) => c.id)).size < s.changes.length)).toBe(true);
    // A provisioner may normalise text it stores: no name is one that NFC or NFKC would change.
    expect(all.filter((name) => name.normalize('NFC') !== name || name.normalize('NFKC') !== name)).toEqual([]);
}

const BUNDLED = (await loadChangeSets(await bundledChangeSetFiles(), '/changes')).map((changeSet) => templateOf(changeSet, '/changes'));

/** A template from a change-set text, checked the way the run checks a user's file. */
function template(name: string, document: unknown, pointer = '/changes'): ChangeSetTemplate {
  const text = JSON.stringify(document);
  return templateOf(parseChangeSet(`${name}.json`, text, pointer), pointer);
}

const NESTED = template('nested', { spec: { region: 'eu', changes: [{ id: 'db', environment: 'prod', action: 'created', tier: 'gold', properties: { size: 's' } }] }, kind: 'k' }, '/spec/changes');
const WITHOUT_PROPERTIES = template('bare', { kind: 'k', type: 't', changes: [{ id: 'db', environment: 'prod', action: 'updated', region: 'eu' }] });

/** The body without its changes: what must be the template's, untouched. */
function withoutChanges(body: unknown): unknown {
  const { changes: _changes, ...rest } = body as JsonObject;
  return rest;
}

/** Generated properties are absent or an object, and any key of the template's own they hold has the template's value. */
function expectOwnValuesKept(properties: unknown, own: unknown): void {
  if (properties === undefined) return;
  expect(isJsonObject(properties)).toBe(true);
  if (!isJsonObject(own)) return;
  for (const [key, value] of Object.entries(properties as JsonObject)) if (Object.hasOwn(own, key)) expect(value).toEqual(own[key]);
}

function templateNamed(name: string, templates: ChangeSetTemplate[]): ChangeSetTemplate {
  return templates.find((t) => t.name === name)!;
}

describe('change sets made from templates', () => {
  it('keep every field of their template but the changes, and are valid by the change-set schema with 1 to 32 unique changes', () => {
    fc.assert(
      fc.property(templatedChangeSetArbitrary(BUNDLED), ({ template: name, changes, body }) => {
        const source = templateNamed(name, BUNDLED);
        expect(withoutChanges(body)).toEqual(withoutChanges(source.document));
        expect(Object.keys(body as JsonObject)).toEqual(Object.keys(source.document as JsonObject));
        expect((body as JsonObject).changes).toEqual(changes);
        expect(isChangeSet(body), JSON.stringify(isChangeSet.errors)).toBe(true);
        expect(changes.length).toBeGreaterThanOrEqual(1);
        expect(changes.length).toBeLessThanOrEqual(MAX_MANY_CHANGES);
        expect(pairsUnique(body)).toBe(true);
        expect(jsonDepth(body)).toBeLessThanOrEqual(7);
        // Properties are absent or an object; whichever of the template's own keys they hold keep their values.
        for (const change of changes) expectOwnValuesKept(change.properties, source.firstChange.properties);
        expect(names([{ changes }]).some((text) => /\p{Cs}|\p{Cc}|\p{Mn}/u.test(text))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('vary ids, environments, actions and properties as the schema allows, from every template', () => {
    const sets = fc.sample(templatedChangeSetArbitrary(BUNDLED), { numRuns: 600, seed: 42 });
    expect(new Set(sets.map((s) => s.template))).toEqual(new Set(BUNDLED.map((t) => t.name)));
    expectChangesToVary(sets);
    const changes = sets.flatMap((s) => s.changes.map((change) => ({ change, own: templateNamed(s.template, BUNDLED).firstChange.properties })));
    expect(changes.some(({ change, own }) => JSON.stringify(change.properties) === JSON.stringify(own))).toBe(true);
    expect(changes.some(({ change, own }) => Object.keys(change.properties as JsonObject).length > Object.keys(own as JsonObject).length)).toBe(true);
    expect(changes.some(({ change }) => isJsonObject(change.properties) && Object.keys(change.properties).length === 0)).toBe(true);
    expect(changes.some(({ change }) => jsonDepth(change.properties) >= 3)).toBe(true);
    // Also without properties, and with only some of the template's keys (the postgres template has two).
    expect(changes.some(({ change, own }) => own !== undefined && change.properties === undefined)).toBe(true);
    expect(
      changes.some(({ change, own }) => {
        const ownKeys = Object.keys(own as JsonObject);
        const kept = isJsonObject(change.properties) ? Object.keys(change.properties) : [];
        return ownKeys.length > 1 && kept.length > 0 && kept.length < ownKeys.length && kept.every((key) => ownKeys.includes(key));
      }),
    ).toBe(true);
    // Usually up to 8 changes, now and then more, never past 32.
    const counts = sets.map((s) => s.changes.length);
    expect(counts.filter((n) => n <= MAX_CHANGES).length).toBeGreaterThan(sets.length * 0.75);
    expect(counts.some((n) => n > 16)).toBe(true);
    expect(Math.max(...counts)).toBeLessThanOrEqual(MAX_MANY_CHANGES);
  });

  it('start each change from the template change: its other fields stay, a change without properties gets none or extras only', () => {
    const sets = fc.sample(templatedChangeSetArbitrary([WITHOUT_PROPERTIES]), { numRuns: 300, seed: 5 });
    const changes = sets.flatMap((s) => s.changes);
    for (const set of sets) expect(JSON.stringify(withoutChanges(set.body))).toBe('{"kind":"k","type":"t"}');
    for (const change of changes) {
      expect(change.region).toBe('eu');
      expect(Object.keys(change).slice(0, 4)).toEqual(['id', 'environment', 'action', 'region']);
    }
    expect(changes.some((c) => c.properties === undefined)).toBe(true);
    expect(changes.some((c) => isJsonObject(c.properties) && Object.keys(c.properties).length > 0)).toBe(true);
  });

  it('put the changes at the template\'s changes pointer and keep everything around them', () => {
    fc.assert(
      fc.property(templatedChangeSetArbitrary([NESTED]), ({ changes, body }) => {
        expect(body).toEqual({ spec: { region: 'eu', changes }, kind: 'k' });
        expect(Object.keys((body as { spec: JsonObject }).spec)).toEqual(['region', 'changes']);
        for (const change of changes) {
          expect(change.tier).toBe('gold');
          expectOwnValuesKept(change.properties, { size: 's' });
        }
      }),
      { numRuns: 200 },
    );
    // The template itself is never changed by what is made from it.
    expect(NESTED.document).toEqual({ spec: { region: 'eu', changes: [{ id: 'db', environment: 'prod', action: 'created', tier: 'gold', properties: { size: 's' } }] }, kind: 'k' });
  });

  it('shrink to one created change with one-character id and environment, the first template\'s properties and fields', () => {
    const details = fc.check(fc.property(templatedChangeSetArbitrary(BUNDLED), () => false), { seed: 1 });
    const first = BUNDLED[0]!;
    const change = { ...first.firstChange, id: 'a', environment: 'a', action: 'created' };
    expect(details.counterexample).toEqual([{ template: first.name, changes: [change], body: { ...(first.document as JsonObject), changes: [change] } }]);
    expect(first.firstChange.properties).toEqual({ sku: 'premium' });
  });

  it('shrink to the template change\'s own properties, or none when it has none', () => {
    for (const source of [NESTED, WITHOUT_PROPERTIES]) {
      const details = fc.check(fc.property(templatedChangeSetArbitrary([source]), (set) => set.changes.length < 2), { seed: 3 });
      const own = source.firstChange.properties;
      expect(details.counterexample![0].changes.map((c) => c.properties)).toEqual([own, own]);
    }
  });
});

describe('generated change sets (the valid starting points of bad bodies)', () => {
  it('are valid by the change-set schema, with 1 to 32 changes, unique (id, environment) pairs and shallow nesting', () => {
    fc.assert(
      fc.property(changeSetArbitrary(), (changeSet) => {
        expect(isChangeSet(changeSet), JSON.stringify(isChangeSet.errors)).toBe(true);
        expect(changeSet.changes.length).toBeGreaterThanOrEqual(1);
        expect(changeSet.changes.length).toBeLessThanOrEqual(MAX_MANY_CHANGES);
        const pairs = changeSet.changes.map((c) => JSON.stringify([c.id, c.environment]));
        expect(new Set(pairs).size).toBe(pairs.length);
        expect(jsonDepth(changeSet)).toBeLessThanOrEqual(7);
        // Valid JSON either way, but a provisioner may fairly refuse or normalise these: a correct one must never fail.
        expect(names([changeSet]).some((name) => /\p{Cs}|\p{Cc}|\p{Mn}/u.test(name))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('vary in every dimension the schema allows', () => {
    const sets = fc.sample(changeSetArbitrary(), { numRuns: 600, seed: 42 });
    expectChangesToVary(sets);
    const properties = sets.flatMap((s) => s.changes.map((c) => c.properties));
    expect(properties).toContain(undefined);
    expect(properties.some((p) => p !== undefined && Object.keys(p).length === 0)).toBe(true);
    expect(properties.some((p) => p !== undefined && jsonDepth(p) >= 3)).toBe(true);
    for (const field of ['application', 'environment', 'kind', 'type'] as const) {
      expect(sets.some((s) => s[field] !== undefined)).toBe(true);
      expect(sets.some((s) => s[field] === undefined)).toBe(true);
    }
  });

  it('shrink to one created change with one-character id and environment and nothing else', () => {
    const details = fc.check(fc.property(changeSetArbitrary(), () => false), { seed: 1 });
    expect(details.counterexample).toEqual([{ changes: [{ id: 'a', environment: 'a', action: 'created' }] }]);
  });
});

describe('bad bodies', () => {
  it('that are meant to be malformed never parse as JSON', () => {
    fc.assert(fc.property(malformedJsonArbitrary(), (body) => !parses(body.text)), { numRuns: 500 });
  });

  it('that are meant to be malformed come in every shape, empty and thousands of brackets deep included', () => {
    const bodies = fc.sample(malformedJsonArbitrary(), { numRuns: 1000, seed: 7 });
    const shapes = new Set(bodies.map((b) => b.what.replace(/^\d+ /, 'N ')));
    expect(shapes).toEqual(
      new Set([
        'a change set cut short',
        'a change set with single quotes',
        'a change set with text after it',
        'an empty or blank body',
        'N unclosed brackets',
        'plain text',
        'JavaScript that is not JSON',
      ]),
    );
    expect(bodies.some((b) => b.text === '')).toBe(true);
    expect(bodies.some((b) => /^\[+$/.test(b.text) && b.text.length > MAX_NESTING * 0.9)).toBe(true);
  });

  it('that are meant to be invalid change sets parse, and the change-set schema refuses each one', () => {
    fc.assert(
      fc.property(invalidChangeSetArbitrary(), (body) => {
        const value = JSON.parse(body.text) as unknown;
        expect(isChangeSet(value) && pairsUnique(value), body.what).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('that are meant to be invalid change sets cover missing and wrong-typed fields, empty changes, repeats, bad actions and non-objects', () => {
    const whats = fc.sample(invalidChangeSetArbitrary(), { numRuns: 1500, seed: 9 }).map((b) => b.what);
    for (const pattern of [/^no changes field$/, /^changes is empty$/, /^changes is not an array$/, /^a change without (id|environment)$/, /^a change whose (id|environment) is /, /^a change whose action is /, /^a change without action$/, /^a change whose properties are /, /twice in environment/, /^a body that is /, /^arrays nested \d+ deep$/]) {
      expect(whats.some((what) => pattern.test(what)), String(pattern)).toBe(true);
    }
  });
});
