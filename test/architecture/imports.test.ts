import { join, resolve } from 'node:path';
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Each file of src, suites and bin with the files of the kit it imports, paths from the package root. */
let imports: Record<string, string[]>;
let cycles: string[][];

// One walk of the graph serves every test; type-only imports count too: a cycle of types still ties layers into one knot.
beforeAll(async () => {
  // The TypeScript parser madge reads imports with warns of its own deprecated fields on every file: not ours to mend.
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  let graph: Awaited<ReturnType<typeof madge>>;
  try {
    graph = await madge(['src', 'suites', 'bin'].map((folder) => join(ROOT, folder)), {
      baseDir: ROOT,
      fileExtensions: ['ts', 'js'],
      tsConfig: join(ROOT, 'tsconfig.json'),
    });
  } finally {
    process.noDeprecation = quiet;
  }
  imports = graph.obj();
  cycles = graph.circular();
});

/**
 * The layers of the kit, lowest first. A file may import files of its own layer and of the layers below it,
 * never above: data flows one way, from what records and judges up to what drives, reports and is called.
 */
const LAYERS: ReadonlyArray<{ layer: string; holds: readonly string[] }> = [
  { layer: 'core', holds: ['src/core/'] },
  { layer: 'errors', holds: ['src/errors.ts'] },
  { layer: 'body shapes and the transcript', holds: ['src/shapes/', 'src/transcript/'] },
  { layer: 'HTTP client and the reference provisioner', holds: ['src/client/', 'src/reference/'] },
  { layer: 'poller', holds: ['src/poller/'] },
  { layer: 'rules', holds: ['src/rules/'] },
  { layer: 'configuration', holds: ['src/config/'] },
  { layer: 'suites', holds: ['suites/'] },
  { layer: 'runner', holds: ['src/runner/'] },
  { layer: 'reports', holds: ['src/report/'] },
  { layer: 'run and observe', holds: ['src/kit/', 'src/observe/'] },
  { layer: 'library and command line', holds: ['src/api/', 'src/cli/', 'src/index.ts', 'src/vitest.ts'] },
  { layer: 'executable', holds: ['bin/'] },
];

/** The rank of a file's layer; undefined for a file outside the kit's sources (the built dist a bin file loads). */
function rankOf(file: string): number | undefined {
  const rank = LAYERS.findIndex(({ holds }) => holds.some((prefix) => file === prefix || (prefix.endsWith('/') && file.startsWith(prefix))));
  return rank === -1 ? undefined : rank;
}

/** Every import that runs from a lower layer up to a higher one. */
function upwardImports(graph: Record<string, string[]>): string[] {
  return Object.entries(graph).flatMap(([file, deps]) => {
    const from = rankOf(file);
    if (from === undefined) return [];
    return deps.filter((dep) => (rankOf(dep) ?? -1) > from).map((dep) => `${file} (${LAYERS[from]!.layer}) → ${dep} (${LAYERS[rankOf(dep)!]!.layer})`);
  });
}

/** What the command line runs goes through the library (`src/api`), the same functions a library caller calls. */
const BELOW_THE_LIBRARY = ['src/kit/', 'src/runner/', 'src/observe/'];

/** Every import of a file of src/cli that reaches the kit, the runner or the observer directly. */
function pastTheLibrary(graph: Record<string, string[]>): string[] {
  return Object.entries(graph).flatMap(([file, deps]) => deps.filter((dep) => BELOW_THE_LIBRARY.some((folder) => dep.startsWith(folder))).map((dep) => `${file} → ${dep}`));
}

describe('imports', () => {
  it('place every file of src, suites and bin in a layer', () => {
    // The built files a bin file loads are the same sources, already placed.
    expect(Object.keys(imports).filter((file) => !file.startsWith('dist/') && rankOf(file) === undefined)).toEqual([]);
  });

  it('point down the layers, never up', () => {
    expect(upwardImports(imports)).toEqual([]);
  });

  it('are told to run up when they do', () => {
    const upward = upwardImports({ 'src/transcript/x.ts': ['src/report/redact.ts', 'src/core/json.ts'], 'src/config/y.ts': ['suites/properties/property.ts'] });
    expect(upward).toEqual([
      'src/transcript/x.ts (body shapes and the transcript) → src/report/redact.ts (reports)',
      'src/config/y.ts (configuration) → suites/properties/property.ts (suites)',
    ]);
  });

  it('keep the library below the command line: src/api imports nothing of src/cli, nor yargs', () => {
    const api = Object.entries(imports).filter(([file]) => file.startsWith('src/api/'));
    expect(api.length).toBeGreaterThan(0);
    expect(api.flatMap(([file, deps]) => deps.filter((dep) => dep.startsWith('src/cli/')).map((dep) => `${file} → ${dep}`))).toEqual([]);
  });

  it('keep the command line on the library: src/cli reaches the kit, the runner and the observer only through src/api', () => {
    const cli = Object.entries(imports).filter(([file]) => file.startsWith('src/cli/'));
    expect(cli.map(([file]) => file)).toContain('src/cli/run.ts');
    // A command's lazy `import()` counts: the graph follows dynamic imports too.
    expect(imports['src/cli/run.ts']).toContain('src/api/run-conformance.ts');
    expect(pastTheLibrary(Object.fromEntries(cli))).toEqual([]);
  });

  it('are told when the command line reaches past the library', () => {
    const graph = { 'src/cli/run.ts': ['src/api/run-conformance.ts', 'src/kit/run.ts'], 'src/cli/verify.ts': ['src/runner/verify-bundle.ts', 'src/observe/verify-har.ts', 'src/config/verify-config.ts'] };
    expect(pastTheLibrary(graph)).toEqual(['src/cli/run.ts → src/kit/run.ts', 'src/cli/verify.ts → src/runner/verify-bundle.ts', 'src/cli/verify.ts → src/observe/verify-har.ts']);
  });

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
