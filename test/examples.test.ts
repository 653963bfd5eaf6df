import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import yargs from 'yargs';
import { runCommand } from '../src/cli/run.js';
import { startReferenceProvisioner } from '../src/reference/index.js';

const ROOT = join(import.meta.dirname, '..');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const FILES = [join(ROOT, 'action.yml'), ...yamlFiles(join(ROOT, 'examples'))];

function runOptions(): Set<string> {
  const parser = yargs([]);
  const builder = runCommand({ exitCode: 0 }).builder as (y: typeof parser) => typeof parser;
  const keys = (builder(parser) as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key;
  return new Set(Object.keys(keys).flatMap((key) => [key, `no-${key}`]));
}

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { steps: Array<{ id?: string; run?: string }> };
}

/** The flags the action's run step puts in the argument array it gives the kit. */
function actionFlags(): string[] {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
  const script = action.runs.steps.find((step) => step.id === 'run')!.run!;
  const arrays = script.split('\n').filter((line) => /\brun\+?=\(/.test(line));
  return arrays.flatMap((line) => [...line.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!));
}

/** The flags workflows give the action in its `args` input, one argument per line. */
function argsInputFlags(file: string): string[] {
  const workflow = parse(readFileSync(file, 'utf8')) as { jobs?: Record<string, { steps?: Array<{ uses?: string; with?: { args?: string } }> }> };
  const steps = Object.values(workflow.jobs ?? {}).flatMap((job) => job.steps ?? []);
  const args = steps.filter((step) => step.uses?.includes('provisioner-conformance')).flatMap((step) => (step.with?.args ?? '').split('\n'));
  return args.flatMap((line) => /^--([a-z][a-z-]*)(?:=|$)/.exec(line.trim())?.[1] ?? []);
}

/** The URLs the examples wait on before they start the kit. */
function waitedOn(text: string): string[] {
  const plain = text.replace(/\$\{\{[^}]*\}\}/g, 'EXPR');
  return [...plain.matchAll(/curl [^\n]*?(?:\\\n\s*)?"?((?:https?:\/\/|\$PROVISIONER_URL)[^\s"]+)/g)].map((match) => match[1]!);
}

describe('the CI examples', () => {
  it('are all there', () => {
    expect(FILES.map((file) => relative(ROOT, file)).sort()).toEqual([
      'action.yml',
      'examples/github-actions/certify.yml',
      'examples/github-actions/conformance.yml',
      'examples/github-actions/uses-action.yml',
      'examples/gitlab-ci/.gitlab-ci.yml',
    ]);
  });

  it.each(FILES.map((file) => [relative(ROOT, file), file]))('%s parses as YAML', (_name, file) => {
    expect(() => parse(readFileSync(file, 'utf8'))).not.toThrow();
    expect(parse(readFileSync(file, 'utf8'))).toBeTypeOf('object');
  });

  it('use only flags the run command has', () => {
    const known = runOptions();
    let checked = 0;
    for (const file of FILES) {
      const text = readFileSync(file, 'utf8');
      for (const command of text.matchAll(/provisioner-conformance(?:\.js\\?"?)? run\b([\s\S]*?)(?:\n\s*(?:-|[a-z_]+:)\s|$)/g)) {
        for (const [, flag] of command[1]!.matchAll(/--([a-z][a-z-]*)/g)) {
          expect(known.has(flag!), `${relative(ROOT, file)}: --${flag}`).toBe(true);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(14);
  });

  it("give the action's run step and its args input only flags the run command has", () => {
    const known = runOptions();
    const flags = [...actionFlags(), ...argsInputFlags(join(ROOT, 'examples', 'github-actions', 'uses-action.yml'))];
    expect(flags).toEqual(expect.arrayContaining(['url', 'profile', 'registration', 'junit', 'html', 'report', 'bundle', 'header', 'strict', 'burst']));
    for (const flag of flags) expect(known.has(flag), `--${flag}`).toBe(true);
  });

  it('install the kit before they call it with npx', () => {
    for (const file of FILES.filter((name) => name.includes('examples'))) {
      const text = readFileSync(file, 'utf8');
      const npx = text.indexOf('npx provisioner-conformance');
      if (npx < 0) continue;
      const install = text.search(/npm install [^\n]*(?:provisioner-conformance|\$CONFORMANCE_KIT)/);
      expect(install, relative(ROOT, file)).toBeGreaterThanOrEqual(0);
      expect(install, relative(ROOT, file)).toBeLessThan(npx);
    }
  });

  it('wait for the provisioner on what the contract offers: a read of an operation it never issued, which answers 404', async () => {
    const urls = FILES.flatMap((file) => waitedOn(readFileSync(file, 'utf8')));
    expect(urls).toHaveLength(3);
    const paths = urls.map((url) => url.replace(/^(?:https?:\/\/[^/]+|\$PROVISIONER_URL)/, ''));
    const reference = await startReferenceProvisioner();
    try {
      for (const path of new Set(paths)) {
        expect(path).toMatch(/^\/operations\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect((await fetch(reference.url + path)).status, path).toBe(404);
      }
    } finally {
      await reference.close();
    }
  });

  it('give the action what a workflow needs: inputs, a composite run and a verdict output', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action & { outputs: Record<string, unknown>; runs: { using: string } };
    expect(action.inputs['url']?.required).toBe(true);
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.length).toBeGreaterThan(1);
    expect(action.outputs).toHaveProperty('verdict');
  });

  it('report JUnit to the CI server: a GitHub matrix over provisioners and a GitLab junit report', () => {
    const github = parse(readFileSync(join(ROOT, 'examples', 'github-actions', 'conformance.yml'), 'utf8')) as {
      jobs: { conformance: { strategy: { matrix: { provisioner: unknown[] } } } };
    };
    expect(github.jobs.conformance.strategy.matrix.provisioner.length).toBeGreaterThan(1);
    const gitlab = parse(readFileSync(join(ROOT, 'examples', 'gitlab-ci', '.gitlab-ci.yml'), 'utf8')) as {
      conformance: { artifacts: { reports: { junit: string } } };
    };
    expect(gitlab.conformance.artifacts.reports.junit).toBe('reports/junit.xml');
  });
});
