import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The files of the kit an entry loads before it runs: static imports only, a dynamic `import()` is not followed. */
async function staticClosure(entry: string): Promise<string[]> {
  const graph = await madge(join(ROOT, entry), {
    baseDir: ROOT,
    fileExtensions: ['ts', 'js'],
    tsConfig: join(ROOT, 'tsconfig.json'),
    detectiveOptions: { ts: { skipAsyncImports: true, skipTypeImports: true }, es6: { skipAsyncImports: true } },
  });
  return Object.keys(graph.obj()).sort();
}

/** The packages a file imports for its values (type-only imports are erased). */
function packagesOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return [...source.matchAll(/^import (?!type )[^;]*?from '([^.][^']*)'/gm)].map((match) => match[1]!);
}

describe('start-up is paid per command', () => {
  it('the CLI entry loads no command module, only the declarations --help lists', async () => {
    const files = await staticClosure('src/cli/main.ts');
    expect(files).toContain('src/cli/declarations/run.ts');
    const commandModules = ['run', 'rules', 'serve', 'verify', 'check-registration'].map((name) => `src/cli/${name}.ts`);
    expect(files.filter((file) => commandModules.includes(file))).toEqual([]);
    // The defaults table is what the help shows as each flag's default: a table, importing nothing.
    expect(files.filter((file) => !/^src\/(cli|core)\/|^src\/errors\.ts$|^src\/config\/defaults\.ts$/.test(file))).toEqual([]);
  });

  it('the CLI entry imports yargs and Node alone: no undici, fast-check, ajv, yaml or html-to-text', async () => {
    const files = await staticClosure('src/cli/main.ts');
    const packages = new Set(files.flatMap(packagesOf).filter((name) => !name.startsWith('node:')));
    expect([...packages]).toEqual(['yargs']);
  });

  it('the library entry does not load the CLI: runConformance resolves its options and runs below the command line', async () => {
    const files = await staticClosure('src/index.ts');
    expect(files).toContain('src/kit/run.ts');
    expect(files.filter((file) => file.startsWith('src/cli/'))).toEqual([]);
    expect(files.flatMap(packagesOf)).not.toContain('yargs');
  });

  it('run --help loads the run flags alone: no runner, client, reports, property suites or reference', async () => {
    const files = await staticClosure('src/cli/run.ts');
    expect(files).toContain('src/cli/run-flags.ts');
    expect(files.filter((file) => !/^src\/(cli|config|core)\/|^src\/errors\.ts$/.test(file))).toEqual([]);
    expect(files).not.toContain('src/kit/run.ts');
    expect(files).not.toContain('src/config/run-config.ts');
    // Not even the config file is read for --help: the resolver reads it when a run starts.
    const packages = new Set(files.flatMap(packagesOf).filter((name) => !name.startsWith('node:')));
    expect([...packages].sort()).toEqual([]);
  });

  it('a run loads fast-check, html-to-text and the reference provisioner only when it uses them', async () => {
    const files = await staticClosure('src/kit/run.ts');
    expect(files).toContain('src/runner/drive-and-judge.ts');
    expect(files.filter((file) => file.startsWith('suites/properties/') || file.startsWith('src/reference/'))).toEqual([]);
    const packages = new Set(files.flatMap(packagesOf).filter((name) => !name.startsWith('node:')));
    expect([...packages].sort()).toEqual(['tinyduration', 'undici']);
  });
});
