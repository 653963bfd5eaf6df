import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/rules/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Every TypeScript file under a folder of the package. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** The families of ids (`answer`, `operation`, …): a literal `answer.` or `answer.*` picks rules by their id. */
const FAMILIES = new Set(RULES.map((rule) => rule.id.slice(0, rule.id.indexOf('.'))));
const MENTIONS_FAMILY = new RegExp(`\\b(${[...FAMILIES].join('|')})\\.`);

const literalsByFile = new Map<string, string[]>();

/** The text of every string and template literal of a file: comments may speak of a rule, code may not name one. */
function literalsOf(file: string): string[] {
  const known = literalsByFile.get(file);
  if (known) return known;
  const text = readFileSync(join(ROOT, file), 'utf8');
  // Only a file whose text names a family of ids can name a rule: the others are not parsed.
  if (!MENTIONS_FAMILY.test(text)) {
    literalsByFile.set(file, []);
    return [];
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const texts: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) texts.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  literalsByFile.set(file, texts);
  return texts;
}

/** `answer.status` in `'answer.status'` or `` `…answer.status was…` ``, not in `answer.status2`. */
function namesRule(text: string, id: string): boolean {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w.-])${escaped}($|[^\\w-])`).test(text);
}

/**
 * Files outside src/rules that may name rules in their text, and why none of them decides how a rule is judged
 * (`asValues`: as whole ids too, not only in sentences). Everywhere else a rule is reached through its fields.
 */
const MAY_NAME_RULES: ReadonlyArray<{ path: string; why: string; asValues: boolean }> = [
  {
    path: 'src/reference/faults/',
    why: "a fault's `breaks` lists the rules its mutant is expected to break: expectations of the kit's own tests",
    asValues: true,
  },
  { path: 'src/shapes/generated/', why: 'generated from schemas/*.json, whose descriptions name the rule a shape stands for', asValues: false },
  { path: 'src/cli/run-flags.ts', why: 'help texts tell a person which rule an option lets the run judge', asValues: false },
];

function mayName(file: string, asValue: boolean): boolean {
  return MAY_NAME_RULES.some((entry) => file.startsWith(entry.path) && (entry.asValues || !asValue));
}

/** A literal that stands for rules as a value: an id, or a family prefix or pattern (`input.`, `answer.*`). */
function isRuleValue(text: string): boolean {
  if (RULES.some((rule) => rule.id === text)) return true;
  const family = /^([a-z]+)\.\*?$/.exec(text);
  return family !== null && FAMILIES.has(family[1]!);
}

describe('a rule carries its own policy', () => {
  const files = [...sourceFiles('src').filter((file) => !file.startsWith('src/rules/')), ...sourceFiles('suites')];

  it('scans every module of src and suites but the rulebook', () => {
    expect(files).toContain('suites/properties/judge-case.ts');
    expect(files).toContain('src/runner/drive-and-judge.ts');
    expect(files).toContain('src/observe/streaming-judge.ts');
    expect(files).toContain('src/cli/check-registration.ts');
    expect(files.some((file) => file.startsWith('src/rules/'))).toBe(false);
    for (const entry of MAY_NAME_RULES) expect(files.some((file) => file.startsWith(entry.path)), entry.path).toBe(true);
  });

  it('no module outside the rulebook names a rule id, a family of ids or a pattern of them as a value', () => {
    const named = files
      .filter((file) => !mayName(file, true))
      .flatMap((file) => literalsOf(file).filter(isRuleValue).map((text) => `${file}: ${text}`));
    expect(named).toEqual([]);
  });

  it('no module outside the rulebook names a rule id in its text, but those that say why', () => {
    const named = files
      .filter((file) => !mayName(file, false))
      .flatMap((file) => literalsOf(file).flatMap((text) => RULES.filter((rule) => namesRule(text, rule.id)).map((rule) => `${file}: ${rule.id}`)));
    expect(named).toEqual([]);
  });

  it('tells a rule named as a value from one named in a sentence', () => {
    expect(isRuleValue('operation.body')).toBe(true);
    expect(isRuleValue('registration.')).toBe(true);
    expect(isRuleValue('answer.*')).toBe(true);
    expect(isRuleValue('input.')).toBe(true);
    expect(isRuleValue('application/json')).toBe(false);
    expect(isRuleValue('fails operation.body')).toBe(false);
  });

  it('finds a rule id in a string or a template, and not in a longer name', () => {
    expect(namesRule('answer.status', 'answer.status')).toBe(true);
    expect(namesRule('so durability.survives-restart was not judged', 'durability.survives-restart')).toBe(true);
    expect(namesRule('answer.status-code', 'answer.status')).toBe(false);
    expect(namesRule('answer.*', 'answer.status')).toBe(false);
  });

  it('every rule declares the situations that show it, the property cases that judge it and whether it is judged across traffic', () => {
    const situations = new Set(['call', 'read', 'read-after-final', 'repeat', 'unknown-id', 'malformed-id', 'burst', 'restart', 'bad-input', 'registration']);
    const cases = new Set(['generated-change-set', 'generated-repeat', 'model-based', 'malformed-json', 'invalid-change-set']);
    for (const rule of RULES) {
      expect(rule.situations.length, rule.id).toBeGreaterThan(0);
      for (const situation of rule.situations) expect(situations.has(situation), `${rule.id}: ${situation}`).toBe(true);
      for (const kind of rule.judgedInCases) expect(cases.has(kind), `${rule.id}: ${kind}`).toBe(true);
      expect(typeof rule.judgedAcrossTraffic, rule.id).toBe('boolean');
    }
  });

  it('judges timing rules and the registration in no property case', () => {
    const never = RULES.filter((rule) => rule.timing || rule.situations.includes('registration'));
    expect(never.length).toBeGreaterThan(0);
    for (const rule of never) expect(rule.judgedInCases, rule.id).toEqual([]);
  });

  it('judges the registration document once, never with exchanges of another situation', () => {
    for (const rule of RULES.filter((candidate) => candidate.situations.includes('registration'))) expect(rule.situations, rule.id).toEqual(['registration']);
  });

  it('every rule says which view of the transcript it judges and whether it is about timing', () => {
    const views = new Set(['whole', 'without-restart', 'without-burst-calls', 'without-burst-overload', 'without-burst-repeats-or-overload']);
    for (const rule of RULES) {
      expect(views.has(rule.view), `${rule.id}: ${rule.view}`).toBe(true);
      expect(typeof rule.timing, rule.id).toBe('boolean');
    }
    expect(RULES.filter((rule) => rule.timing).map((rule) => rule.id)).toEqual(['answer.prompt', 'operation.transient-errors']);
  });
});
