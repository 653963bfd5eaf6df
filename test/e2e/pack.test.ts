import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './run-cli.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function sh(command: string, args: string[], cwd: string, timeout = 240_000): Promise<Ran> {
  return new Promise((done) => {
    execFile(command, args, { cwd, timeout, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

// The package as a user gets it (a Node project, so with Node's types): packed (prepack builds dist/), installed into a project of its own.
describe('the packed package', () => {
  let project: string;

  beforeAll(async () => {
    // Packed from a copy of the committed files, so that prepack's build never touches the dist/ other tests run.
    const source = mkdtempSync(join(tmpdir(), 'pc-source-'));
    const files = (await sh('git', ['ls-files', '-z'], ROOT)).stdout.split('\0').filter(Boolean);
    for (const file of files) cpSync(join(ROOT, file), join(source, file), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'));
    const packs = mkdtempSync(join(tmpdir(), 'pc-pack-'));
    const packed = await sh('npm', ['pack', '--silent', '--pack-destination', packs], source);
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz'))!);
    project = mkdtempSync(join(tmpdir(), 'pc-consumer-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }));
    const installed = await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
    expect(installed.code, installed.stderr).toBe(0);
  }, 300_000);

  it('runs with npx against the bundled reference', async () => {
    const run = await sh('npx', ['provisioner-conformance', 'run', '--reference', '--profile', 'quick', '--no-properties', '--reference-work', 'PT0.2S'], project);
    expect(run.stdout).toContain('verdict: pass (exit 0)');
    expect(run.code).toBe(0);
  }, 120_000);

  it('is imported as a library, with its types', async () => {
    writeFileSync(
      join(project, 'check.ts'),
      [
        `import { runConformance, RULES, type Report } from 'provisioner-conformance';`,
        `import { describeConformance } from 'provisioner-conformance/vitest';`,
        `const report: Report = await runConformance({ reference: true, profile: 'quick', properties: false, referenceWork: 'PT0.2S' });`,
        `const wrong: Report['verdict'] = 'pass';`,
        `console.log(JSON.stringify({ verdict: report.verdict, rules: report.rules.length, catalog: RULES.length, vitest: typeof describeConformance, wrong }));`,
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, outDir: 'out', typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] }, files: ['check.ts'] }),
    );
    const typed = await sh(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project);
    expect(typed.stdout + typed.stderr).toBe('');
    expect(typed.code).toBe(0);
    writeFileSync(
      join(project, 'check.mjs'),
      `import { runConformance, RULES } from 'provisioner-conformance';\nconst report = await runConformance({ reference: true, profile: 'quick', properties: false, referenceWork: 'PT0.2S' });\nconsole.log(JSON.stringify({ verdict: report.verdict, rules: report.rules.length, catalog: RULES.length }));\n`,
    );
    const ran = await sh(process.execPath, ['check.mjs'], project);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout.trim().split('\n').pop()!)).toEqual({ verdict: 'pass', rules: 34, catalog: 34 });
  }, 120_000);
});
