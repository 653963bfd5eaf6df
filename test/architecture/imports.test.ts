import { join, resolve } from 'node:path';
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Each file of src, suites and bin with the files of the kit it imports, paths from the package root. */
let imports: Record<string, string[]>;
let cycles: string[][];

// One walk of the graph serves every test; type-only imports count too: a cycle of types still ties layers into one knot.
beforeAll(async () => {
  const graph = await madge(['src', 'suites', 'bin'].map((folder) => join(ROOT, folder)), {
    baseDir: ROOT,
    fileExtensions: ['ts', 'js'],
    tsConfig: join(ROOT, 'tsconfig.json'),
  });
  imports = graph.obj();
  cycles = graph.circular();
});

describe('imports', () => {
  it('form no cycle over src, suites and bin', () => {
    expect(imports['src/cli/main.ts']).toContain('src/errors.ts');
    expect(cycles).toEqual([]);
  });

  it('leave src/core at the bottom: it imports nothing of the kit outside itself', () => {
    const core = Object.entries(imports).filter(([file]) => file.startsWith('src/core/'));
    expect(core.length).toBeGreaterThan(0);
    const upward = core.flatMap(([file, deps]) => deps.filter((dep) => !dep.startsWith('src/core/')).map((dep) => `${file} → ${dep}`));
    expect(upward).toEqual([]);
  });

  it('keep the rule families apart from each other, and their helpers below them', () => {
    const rules = Object.entries(imports).filter(([file]) => file.startsWith('src/rules/'));
    expect(rules.map(([file]) => file)).toContain('src/rules/catalog/capacity.ts');
    expect(rules.map(([file]) => file)).toContain('src/rules/support/judgement.ts');
    const crossing = rules.flatMap(([file, deps]) =>
      deps
        .filter((dep) => (file.startsWith('src/rules/support/') || file.startsWith('src/rules/catalog/')) && dep.startsWith('src/rules/catalog/'))
        .map((dep) => `${file} → ${dep}`),
    );
    expect(crossing).toEqual([]);
  });

  it('keep src/errors.ts just above it: it imports only src/core', () => {
    expect(imports['src/errors.ts']!.every((dep) => dep.startsWith('src/core/'))).toBe(true);
  });
});
