import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Every module a source's imports and re-exports name, as written. */
function specifiers(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms), ...source.matchAll(/^\s*import\s+'([^']+)'/gm), ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((match) => match[1]!);
}

/** The modules an entry reaches past the library's own layer. */
function pastTheApi(source: string): string[] {
  return specifiers(source).filter((name) => !name.startsWith('./api/'));
}

describe('the library entry', () => {
  it('src/index.ts exports only through src/api', () => {
    const source = readFileSync(join(ROOT, 'src', 'index.ts'), 'utf8');
    expect(specifiers(source).length).toBeGreaterThan(5);
    expect(pastTheApi(source)).toEqual([]);
  });

  it('is told when it reaches past src/api, by a re-export, a type or an import', () => {
    const source = [
      "export { runConformance } from './api/run-conformance.js';",
      "export type { RuleBreak } from './observe/rule-breaks.js';",
      'export {\n  verifyBundle,\n} from \'./runner/verify-bundle.js\';',
      "import { RULES } from './rules/index.js';",
    ].join('\n');
    expect(pastTheApi(source)).toEqual(['./observe/rule-breaks.js', './runner/verify-bundle.js', './rules/index.js']);
  });
});
