import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './run-cli.js';
import { RULES } from '../../src/rules/index.js';

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

/** The TypeScript releases a consumer type-checks the package with: the one the kit is built with, and the newest. */
const TYPESCRIPTS = { 'typescript-5.9': 'npm:typescript@~5.9.3', typescript: 'latest' };

// The package as a user gets it: packed (prepack builds dist/), installed into a project of its own.
describe('the packed package', () => {
  let project: string;
  let tarball: string;

  beforeAll(async () => {
    // Packed from a copy of the committed files, so that prepack's build never touches the dist/ other tests run.
    const source = mkdtempSync(join(tmpdir(), 'pc-source-'));
    const files = (await sh('git', ['ls-files', '-z'], ROOT)).stdout.split('\0').filter(Boolean);
    for (const file of files) cpSync(join(ROOT, file), join(source, file), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'));
    const packs = mkdtempSync(join(tmpdir(), 'pc-pack-'));
    const packed = await sh('npm', ['pack', '--silent', '--pack-destination', packs], source);
    expect(packed.code, packed.stderr).toBe(0);
    tarball = join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz'))!);
    project = mkdtempSync(join(tmpdir(), 'pc-consumer-'));
    // One install for all: the kit as README says, and both TypeScript releases a consumer may type-check it with.
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true, devDependencies: { 'provisioner-conformance': `file:${tarball}`, ...TYPESCRIPTS } }),
    );
    const installed = await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], project);
    expect(installed.code, installed.stderr).toBe(0);
  }, 300_000);

  it('ships the built kit without source maps, which would point at sources it does not ship', async () => {
    const listed = await sh('tar', ['-tzf', tarball], ROOT);
    const files = listed.stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/dist/src/index.js');
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('package/src/'))).toEqual([]);
  });

  it('runs with npx against the bundled reference', async () => {
    const run = await sh('npx', ['provisioner-conformance', 'run', '--reference', '--profile', 'quick', '--no-properties', '--reference-work', 'PT0.2S'], project);
    expect(run.stdout).toContain('verdict: pass (exit 0)');
    expect(run.code).toBe(0);
  }, 120_000);

  it('is imported as a library', async () => {
    writeFileSync(
      join(project, 'check.mjs'),
      `import { runConformance, RULES } from 'provisioner-conformance';\nconst report = await runConformance({ reference: true, profile: 'quick', properties: false, referenceWork: 'PT0.2S' });\nconsole.log(JSON.stringify({ verdict: report.verdict, rules: report.rules.length, catalog: RULES.length }));\n`,
    );
    const ran = await sh(process.execPath, ['check.mjs'], project);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout.trim().split('\n').pop()!)).toEqual({ verdict: 'pass', rules: RULES.length, catalog: RULES.length });
  }, 120_000);

  it('is required from CommonJS where Node can load an ES module so, and says it is an ES module where it cannot', async () => {
    writeFileSync(join(project, 'check.cjs'), `const kit = require('provisioner-conformance');\nconsole.log(typeof kit.runConformance, Array.isArray(kit.RULES));\n`);
    const required = await sh(process.execPath, ['check.cjs'], project);
    // Node 20.19, 22.12 and later load ES modules with require(); 20.18 does not.
    if ((process.features as { require_module?: boolean }).require_module) expect(required.stdout.trim(), required.stderr).toBe('function true');
    else expect(required.stderr).toContain('provisioner-conformance is an ES module: use import()');
    const refused = await sh(process.execPath, ['--no-experimental-require-module', 'check.cjs'], project);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('provisioner-conformance is an ES module: use import()');
    expect(refused.stderr).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  }, 60_000);

  // Without @types/node, as a TypeScript 6 or later project has by default; with the catalog, the report and its rules.
  const CONSUMER = [
    `import { runConformance, RULES, type Report, type ReportRule, type ReportEvidence, type ReportExchange, type RuleStatus } from 'provisioner-conformance';`,
    `import { describeConformance } from 'provisioner-conformance/vitest';`,
    `const report: Report = await runConformance({ reference: true, profile: 'quick', properties: false, referenceWork: 'PT0.2S' });`,
    `const failed: ReportRule[] = report.rules.filter((rule) => rule.status === 'fail');`,
    `const evidence: ReportEvidence[] = failed.flatMap((rule) => rule.evidence);`,
    `const exchanges: ReportExchange[] = evidence.flatMap((shown) => shown.exchanges);`,
    `const statuses: RuleStatus[] = report.rules.map((rule) => rule.status);`,
    `const verdict: Report['verdict'] = report.verdict;`,
    `export const seen = { verdict, failed: failed.map((rule) => rule.id), curl: exchanges.map((exchange) => exchange.curl), statuses, catalog: RULES.length, vitest: typeof describeConformance };`,
  ].join('\n');

  it('type-checks a use of report.rules with the current TypeScript and no tsconfig', async () => {
    writeFileSync(join(project, 'check.ts'), CONSUMER);
    const typed = await sh(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', 'check.ts'], project);
    expect(typed.stdout + typed.stderr).toBe('');
    expect(typed.code).toBe(0);
  }, 120_000);

  it('type-checks it with TypeScript 5.9, strictly, declarations included, with and without Node types', async () => {
    writeFileSync(join(project, 'check.ts'), CONSUMER);
    // Named apart from tsconfig.json, which the current TypeScript refuses to ignore when given files to check.
    const options = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true };
    writeFileSync(join(project, 'tsconfig.strict.json'), JSON.stringify({ compilerOptions: { ...options, skipLibCheck: false, types: [] }, files: ['check.ts'] }));
    // A Node project has Node's types (the kit's own); the kit's declarations were checked just above, Node's need not be.
    writeFileSync(
      join(project, 'tsconfig.node.json'),
      JSON.stringify({ compilerOptions: { ...options, skipLibCheck: true, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] }, files: ['check.ts'] }),
    );
    const tsc = join(project, 'node_modules', 'typescript-5.9', 'bin', 'tsc');
    for (const config of ['tsconfig.strict.json', 'tsconfig.node.json']) {
      const typed = await sh(process.execPath, [tsc, '-p', config], project);
      expect(typed.stdout + typed.stderr, config).toBe('');
      expect(typed.code, config).toBe(0);
    }
  }, 120_000);
});
