import { describe, expect, expectTypeOf, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report, ReportEvidence, ReportExchange, ReportRule, RuleStatus } from '../src/index.js';

const ROOT = join(import.meta.dirname, '..');

interface Manifest {
  main: string;
  types: string;
  bin: Record<string, string>;
  files: string[];
  exports: Record<string, string | Record<string, string>>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

function targets(): string[] {
  const fromExports = Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
  // npm ships package.json whatever `files` says.
  return [manifest.main, manifest.types, ...Object.values(manifest.bin), ...fromExports].map((path) => path.replace(/^\.\//, '')).filter((path) => path !== 'package.json');
}

function node(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe("the package's entry points", () => {
  it('are all in the files the package ships', () => {
    for (const target of targets()) {
      expect(
        manifest.files.some((shipped) => target === shipped || target.startsWith(`${shipped}/`)),
        target,
      ).toBe(true);
    }
  });

  it('give require() the ES module where Node loads one so, and otherwise an error that says to import() it', async () => {
    const entry = join(ROOT, (manifest.exports['.'] as Record<string, string>)['require']!);
    expect(existsSync(entry)).toBe(true);
    const script = `try { const kit = require(${JSON.stringify(entry)}); console.log(typeof kit.runConformance) } catch (e) { console.log(e.code + ' ' + e.message) }`;
    const refused = await node(['--no-experimental-require-module', '-e', script]);
    expect(refused.stdout).toMatch(/^ERR_REQUIRE_ESM provisioner-conformance is an ES module: use import\(\)/);
    expect(refused.stdout).toContain(`this is Node ${process.versions.node}`);
    if ((process.features as { require_module?: boolean }).require_module) {
      expect((await node(['-e', script])).stdout.trim()).toBe('function');
    }
  });

  it("type a report's rules as ReportRule, down to their exchanges", () => {
    // Type assertions: the type-check of the tests (npm run typecheck, part of npm test) fails when they do not hold.
    expectTypeOf<Report['rules']>().toEqualTypeOf<ReportRule[]>();
    expectTypeOf<ReportRule['evidence']>().toEqualTypeOf<ReportEvidence[]>();
    expectTypeOf<ReportEvidence['exchanges']>().toEqualTypeOf<ReportExchange[]>();
    expectTypeOf<ReportRule['status']>().toEqualTypeOf<RuleStatus>();
  });
});
