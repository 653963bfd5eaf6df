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

/** The text of every string and template literal of a file: comments may speak of a rule, code may not name one. */
function literalsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const texts: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) texts.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

/** `answer.status` in `'answer.status'` or `` `…answer.status was…` ``, not in `answer.status2`. */
function namesRule(text: string, id: string): boolean {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w.-])${escaped}($|[^\\w-])`).test(text);
}

describe('a rule carries its own policy', () => {
  it('no module of the suites or the runner names a rule id to decide how it is judged', () => {
    const files = [...sourceFiles('suites'), ...sourceFiles('src/runner')];
    expect(files).toContain('suites/properties/judge-case.ts');
    expect(files).toContain('src/runner/run.ts');
    const named = files.flatMap((file) =>
      literalsOf(file).flatMap((text) => RULES.filter((rule) => namesRule(text, rule.id)).map((rule) => `${file}: ${rule.id}`)),
    );
    expect(named).toEqual([]);
  });

  it('finds a rule id in a string or a template, and not in a longer name', () => {
    expect(namesRule('answer.status', 'answer.status')).toBe(true);
    expect(namesRule('so durability.survives-restart was not judged', 'durability.survives-restart')).toBe(true);
    expect(namesRule('answer.status-code', 'answer.status')).toBe(false);
    expect(namesRule('answer.*', 'answer.status')).toBe(false);
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
