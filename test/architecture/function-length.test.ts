import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..', '..');
/** Past this many lines a function does several things; its parts get names of their own. */
const MOST_LINES = 120;

/** The code written by hand: the schema validators ajv generates (`npm run generate`) are not. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !relative(ROOT, file).startsWith(join('src', 'shapes', 'generated')));
}

/** Every function, method and arrow function of a file over the limit, as `file:line name (lines)`. */
function longFunctions(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      if (lines > MOST_LINES) found.push(`${relative(ROOT, file)}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the size of functions', () => {
  it(`keeps every function of src/ and suites/ within ${MOST_LINES} lines`, () => {
    const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'suites'))];
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => longFunctions(file))).toEqual([]);
  });

  it('finds a function over the limit, arrow functions and methods too, and lets one at the limit be', () => {
    const body = (lines: number): string => Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const file = join(ROOT, 'src', 'example.ts');
    expect(longFunctions(file, `export function atLimit(): void {\n${body(MOST_LINES)}\n}\n`)).toEqual([]);
    expect(longFunctions(file, `export function long(): void {\n${body(MOST_LINES + 1)}\n}\n`)).toEqual([`src/example.ts:1 long (${MOST_LINES + 1} lines)`]);
    expect(longFunctions(file, `export const arrow = (): void => {\n${body(MOST_LINES + 1)}\n};\n`)).toEqual([`src/example.ts:1 (anonymous) (${MOST_LINES + 1} lines)`]);
    expect(longFunctions(file, `class K {\n  method(): void {\n${body(MOST_LINES + 1)}\n  }\n}\n`)).toEqual([`src/example.ts:2 method (${MOST_LINES + 1} lines)`]);
  });
});
