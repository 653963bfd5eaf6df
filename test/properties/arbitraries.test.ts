import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020.js';
import { jsonDepth } from '../../src/reference/input-limits.js';
import { changeSetArbitrary, MAX_CHANGES, type GeneratedChangeSet } from '../../suites/properties/change-set-arbitrary.js';
import { invalidChangeSetArbitrary, malformedJsonArbitrary, MAX_NESTING } from '../../suites/properties/bad-input-arbitrary.js';
import { ROOT } from '../e2e/run-cli.js';

const ajv = new Ajv2020.default({ allErrors: true, strict: false });
const isChangeSet = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'change-set.schema.json'), 'utf8')) as object);

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** What CHANGE-SET.md asks beyond the schema: each (id, environment) pair once. */
function pairsUnique(value: unknown): boolean {
  const changes = (value as { changes: Array<{ id: string; environment: string }> }).changes;
  const pairs = changes.map((c) => JSON.stringify([c.id, c.environment]));
  return new Set(pairs).size === pairs.length;
}

const names = (sets: GeneratedChangeSet[]): string[] => sets.flatMap((set) => set.changes.flatMap((c) => [c.id, c.environment]));

describe('generated change sets', () => {
  it('are valid by the change-set schema, with 1 to 8 changes, unique (id, environment) pairs and shallow nesting', () => {
    fc.assert(
      fc.property(changeSetArbitrary(), (changeSet) => {
        expect(isChangeSet(changeSet), JSON.stringify(isChangeSet.errors)).toBe(true);
        expect(changeSet.changes.length).toBeGreaterThanOrEqual(1);
        expect(changeSet.changes.length).toBeLessThanOrEqual(MAX_CHANGES);
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
    for (const pattern of [/^no changes field$/, /^changes is empty$/, /^changes is not an array$/, /^a change without (id|environment)$/, /^a change whose (id|environment) is /, /^a change whose action is /, /^a change without action$/, /^a change whose properties are /, /twice in environment/, /^(application|environment|kind|type) is /, /^a body that is /, /^arrays nested \d+ deep$/]) {
      expect(whats.some((what) => pattern.test(what)), String(pattern)).toBe(true);
    }
  });
});
