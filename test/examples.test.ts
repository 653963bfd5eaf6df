import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import yargs from 'yargs';
import { runCommand } from '../src/cli/run.js';

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

describe('the CI examples', () => {
  it('are all there', () => {
    expect(FILES.map((file) => relative(ROOT, file)).sort()).toEqual([
      'action.yml',
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

  it('give the action what a workflow needs: inputs, a composite run and a verdict output', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { required: boolean }>;
      outputs: Record<string, unknown>;
      runs: { using: string; steps: unknown[] };
    };
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
