import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));
const text = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');

/** Every path CONTRIBUTING.md names in backticks: a file or folder of the repository (placeholders left out). */
function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  return [...new Set(spans.filter((span) => /^(src|suites|test|schemas|fixtures|bench|bin)\//.test(span) && !span.includes('<')))];
}

describe('CONTRIBUTING.md', () => {
  it('names only files and folders that exist', () => {
    const paths = namedPaths(text);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('names a path that would be missing when one is invented', () => {
    expect(namedPaths('see `src/rules/nowhere.ts` and `test/<family>.test.ts`')).toEqual(['src/rules/nowhere.ts']);
  });
});
