import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'provisioner-conformance.js');

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  report?: JsonReportShape;
}

/** The parts of the JSON report the tests read. */
export interface JsonReportShape {
  verdict: string;
  exitCode: number;
  summary: Record<string, number>;
  rules: Array<{ id: string; level: string; status: string; message: string; evidence: unknown[] }>;
  [key: string]: unknown;
}

/** Runs the built CLI as a user would, with a JSON report in a fresh folder. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; withReport?: boolean; timeoutMs?: number; cwd?: string } = {}): Promise<CliRun> {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('build first: npm run build');
  const reportPath = join(mkdtempSync(join(tmpdir(), 'pc-e2e-')), 'report.json');
  const fullArgs = options.withReport === false ? args : [...args, '--report', reportPath];
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...fullArgs],
      { cwd: options.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...options.env }, timeout: options.timeoutMs ?? 60_000, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        const report = existsSync(reportPath) ? (JSON.parse(readFileSync(reportPath, 'utf8')) as JsonReportShape) : undefined;
        done({ exitCode, stdout, stderr, report });
      },
    );
  });
}
