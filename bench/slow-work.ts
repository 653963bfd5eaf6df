/**
 * Prints what a default run costs against slow work: the reference provisioner runs in a process of its
 * own with work W, a default `run` (the `ci` profile, every suite and property) is aimed at it, and the
 * bench prints the run's wall time over W, the cases each property judged and whether a limit cut one
 * short. The goal is a wall time of at most 4 W + 20 s with every case judged.
 * Run: npm run bench:slow (W = 2 s and 15 s; BENCH_SLOW_60=1 adds 60 s; BENCH_SLOW_WORK=2,15 picks others).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'provisioner-conformance.js');
const WORK_SECONDS = (process.env.BENCH_SLOW_WORK ?? `2,15${process.env.BENCH_SLOW_60 === '1' ? ',60' : ''}`).split(',').map(Number);

interface ReportShape {
  verdict: string;
  summary: Record<string, number>;
  properties?: Array<{ name: string; status: string; numRuns: number; interrupted: boolean }>;
}

/** Starts `serve` in a child process and resolves with its URL, the first line it prints. */
async function serve(workSeconds: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--mode', 'async', '--work', `PT${workSeconds}S`, '--max-operation-duration', 'PT30M'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) if (line.startsWith('http://')) return { url: line.trim(), child };
  throw new Error('serve ended before it printed its URL');
}

function runKit(url: string, reportPath: string): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, 'run', '--url', url, '--max-operation-duration', 'PT30M', '--report', reportPath], { stdio: 'ignore' });
    child.on('error', fail);
    child.on('exit', (code) => done(code ?? -1));
  });
}

async function measure(workSeconds: number): Promise<void> {
  const { url, child } = await serve(workSeconds);
  const folder = mkdtempSync(join(tmpdir(), 'pc-bench-slow-'));
  try {
    const reportPath = join(folder, 'report.json');
    const started = performance.now();
    const exitCode = await runKit(url, reportPath);
    const wallS = (performance.now() - started) / 1000;
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as ReportShape;
    const goalS = 4 * workSeconds + 20;
    const properties = (report.properties ?? []).map((p) => `${p.name.replace('property/', '')} ${p.numRuns}${p.interrupted ? ' (cut short)' : ''}`);
    console.log(
      [
        `work ${String(workSeconds).padStart(3)} s`,
        `wall ${wallS.toFixed(1)} s`,
        `wall/W ${(wallS / workSeconds).toFixed(2)}`,
        `goal ${goalS} s ${wallS <= goalS ? 'met' : 'missed'}`,
        `verdict ${report.verdict} (exit ${exitCode})`,
        `cases judged: ${properties.join(', ')}`,
      ].join('  '),
    );
  } finally {
    child.kill();
    rmSync(folder, { recursive: true, force: true });
  }
}

console.log('slow work: the reference provisioner in its own process (async: every plan and apply takes W), a default run');
for (const seconds of WORK_SECONDS) await measure(seconds);
