/**
 * Prints what runs cost against slow work: the reference provisioner served in a process of its own (async:
 * every plan and apply takes W), the kit aimed at it as a user would, and for each run its wall time over W, the
 * cases each property judged of those it was asked for, and the verdict.
 *
 *   certify, W = 30 s: --profile certify with the reference's registration and a --restart-command that stops
 *     the served reference and starts it again on the same port and durable store (--store).
 *     Goal: pass within 180 s (4 W + 60 s), every case judged.
 *   ci (the default run), W = 15 s. Goal: at most 75 s.
 *   a target that answers nothing (nothing listens). Goal: exit 3 within 5 s, at most ten lines.
 *   a result lost only for three changes or more, W = 8 s: the default run against a provisioner written apart from
 *     the kit (every plan and apply accepted, ending W later) that leaves out the last change's result when a
 *     change set holds three or more. Generated plans find it; the time is until the minimal counterexample
 *     (three changes) was first judged. Goal: at most 120 s, under final.results-match-changes.
 *
 * Run: npm run bench:slow. BENCH_SLOW_LONG=1 adds certify and ci at W = 2 min (goals 3 W + 60 s and 3 W + 30 s);
 * BENCH_SLOW_W5=1 adds certify at W = 5 min, as a platform team certifies a provisioner of minutes: a PT15M
 * registration, certify's poll interval PT10S, a restart by command (goal: pass with every case judged within
 * 3 W + 60 s = 960 s; it takes about sixteen minutes);
 * BENCH_SLOW_ONLY=certify,ci,unreachable,lost-result picks some of the runs (certify-5min: that one alone, with BENCH_SLOW_W5=1).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSlowProvisioner } from './support/slow-buggy-provisioner.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'provisioner-conformance.js');
const REGISTRATION = join(ROOT, 'fixtures', 'registrations', 'reference.json');
const ONLY = (process.env.BENCH_SLOW_ONLY ?? 'certify,ci,unreachable,lost-result').split(',');
const LONG = process.env.BENCH_SLOW_LONG === '1';
const FIVE_MINUTES = process.env.BENCH_SLOW_W5 === '1';

interface ReportShape {
  verdict: string;
  startedAt: string;
  rules?: Array<{ id: string; status: string }>;
  properties?: Array<{
    name: string;
    status: string;
    numRuns: number;
    shrinkRuns?: number;
    casesAsked?: number;
    interrupted: boolean;
    ruleIds?: string[];
    counterexample?: string;
    message?: string;
    exchanges?: Array<{ sentAt: string; elapsedMs: number }>;
  }>;
}

interface Measured {
  wallS: number;
  exitCode: number;
  output: string;
  report?: ReportShape;
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/**
 * The reference served apart on a fixed port with a durable store, and a shell command that restarts it: stops
 * the process in the pid file, starts `serve` again with the same arguments, and returns once it listens.
 */
async function servedWithRestart(workSeconds: number, folder: string): Promise<{ url: string; restartCommand: string; stop(): void }> {
  const port = await freePort();
  const pidFile = join(folder, 'pid');
  const serveArgs = [BIN, 'serve', '--host', '127.0.0.1', '--port', String(port), '--mode', 'async', '--work', `PT${workSeconds}S`, '--store', join(folder, 'store.json'), '--max-operation-duration', 'PT30M'];
  const quoted = serveArgs.map((arg) => `'${arg}'`).join(' ');
  const listening = `node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"`;
  const start = `nohup '${process.execPath}' ${quoted} >/dev/null 2>&1 & echo $! > '${pidFile}'; until ${listening}; do sleep 0.1; done`;
  const script = join(folder, 'restart.sh');
  writeFileSync(script, `kill $(cat '${pidFile}') 2>/dev/null; while kill -0 $(cat '${pidFile}') 2>/dev/null; do sleep 0.05; done\n${start}\n`);
  execFileSync('sh', ['-c', start]);
  return {
    url: `http://127.0.0.1:${port}`,
    restartCommand: `sh '${script}'`,
    stop: () => {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
      } catch {
        // Already gone.
      }
    },
  };
}

function runKit(args: readonly string[], reportPath: string | undefined): Promise<Measured> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'run', ...args, ...(reportPath ? ['--report', reportPath] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (output += chunk));
    child.on('error', fail);
    child.on('exit', (code) => {
      const wallS = (performance.now() - started) / 1000;
      const report = reportPath ? (JSON.parse(readFileSync(reportPath, 'utf8')) as ReportShape) : undefined;
      done({ wallS, exitCode: code ?? -1, output, ...(report && { report }) });
    });
  });
}

function casesText(report: ReportShape | undefined): string {
  const properties = report?.properties ?? [];
  const judged = properties.reduce((sum, p) => sum + p.numRuns - (p.shrinkRuns ?? 0), 0);
  const asked = properties.reduce((sum, p) => sum + (p.casesAsked ?? p.numRuns), 0);
  const each = properties.map((p) => `${p.name.replace('property/', '')} ${p.numRuns - (p.shrinkRuns ?? 0)}/${p.casesAsked ?? '?'}${p.interrupted ? ' cut' : ''}`);
  return `cases judged ${judged}/${asked} (${each.join(', ')})`;
}

/**
 * The reference's registration, with a maxOperationDuration its work fits in: the bundled one registers PT1M,
 * and a provisioner whose work outlasts what it registered rightly fails operation.within-max-duration.
 */
function registrationFor(workSeconds: number, folder: string): string {
  const registration = JSON.parse(readFileSync(REGISTRATION, 'utf8')) as { maxOperationDuration: string };
  const minutes = Math.max(1, Math.ceil((workSeconds * 3) / 60));
  const file = join(folder, 'registration.json');
  writeFileSync(file, JSON.stringify({ ...registration, maxOperationDuration: `PT${minutes}M` }));
  return file;
}

async function slowRun(profile: 'certify' | 'ci', workSeconds: number, goalS: number): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'pc-bench-slow-'));
  const served = await servedWithRestart(workSeconds, folder);
  try {
    const args =
      profile === 'certify'
        ? ['--url', served.url, '--profile', 'certify', '--registration', registrationFor(workSeconds, folder), '--restart-command', served.restartCommand]
        : ['--url', served.url, '--max-operation-duration', 'PT30M'];
    const run = await runKit(args, join(folder, 'report.json'));
    console.log(
      [
        `${profile.padEnd(7)} W ${String(workSeconds).padStart(3)} s`,
        `wall ${run.wallS.toFixed(1)} s = ${(run.wallS / workSeconds).toFixed(2)} W`,
        `goal ${goalS} s ${run.wallS <= goalS ? 'met' : 'missed'}`,
        `verdict ${run.report?.verdict ?? '?'} (exit ${run.exitCode})`,
        casesText(run.report),
      ].join('  '),
    );
    // What kept a run from passing, so that a figure is never read without its reason.
    const open = (run.report?.rules ?? []).filter((rule) => rule.status === 'not-exercised' || rule.status === 'fail');
    if (run.report?.verdict !== 'pass' && open.length > 0) console.log(`  not passing: ${open.map((rule) => `${rule.id} ${rule.status}`).join(', ')}`);
  } finally {
    served.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

async function unreachable(): Promise<void> {
  const port = await freePort();
  const run = await runKit(['--url', `http://127.0.0.1:${port}`], undefined);
  const lines = run.output.trim().split('\n').length;
  console.log(`nothing listens  wall ${run.wallS.toFixed(1)} s  goal 5 s ${run.wallS <= 5 ? 'met' : 'missed'}  exit ${run.exitCode}  ${lines} lines of output (goal ≤ 10)`);
}

/**
 * The default run against a provisioner that loses the last result of three changes or more: how long until generated
 * plans judged the minimal counterexample (its exchanges' end, from the run's start), and what the run reported.
 */
async function lostResult(workSeconds: number, goalS: number): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'pc-bench-slow-'));
  const provisioner = await startSlowProvisioner(workSeconds * 1000, 'third-change-lost');
  try {
    const run = await runKit(['--url', provisioner.url], join(folder, 'report.json'));
    const found = run.report?.properties?.find((p) => p.name === 'property/generated-plans');
    const changes = found?.counterexample === undefined ? undefined : (JSON.parse(found.counterexample) as { changes: unknown[] }).changes.length;
    const minimal = changes === 3 && !(found?.message ?? '').includes('not minimal');
    const startedAt = Date.parse(run.report?.startedAt ?? '');
    const judgedAt = Math.max(...(found?.exchanges ?? []).map((e) => Date.parse(e.sentAt) + e.elapsedMs));
    const toMinimalS = minimal && Number.isFinite(judgedAt) ? (judgedAt - startedAt) / 1000 : undefined;
    console.log(
      [
        `lost result W ${String(workSeconds).padStart(3)} s`,
        `wall ${run.wallS.toFixed(1)} s = ${(run.wallS / workSeconds).toFixed(2)} W`,
        toMinimalS === undefined ? 'no minimal counterexample' : `minimal counterexample judged at ${toMinimalS.toFixed(1)} s = ${(toMinimalS / workSeconds).toFixed(2)} W`,
        `goal ${goalS} s ${toMinimalS !== undefined && toMinimalS <= goalS ? 'met' : 'missed'}`,
        `${found?.shrinkRuns ?? 0} candidates tried`,
        `counterexample of ${changes ?? '?'} changes, ${minimal ? 'minimal' : 'not minimal'}`,
        `verdict ${run.report?.verdict ?? '?'} (exit ${run.exitCode})`,
        `rule ${found?.ruleIds?.join(', ') || 'none'}`,
      ].join('  '),
    );
    if (found?.message) console.log(`  ${found.message}`);
  } finally {
    await provisioner.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

console.log('slow work: the reference provisioner served apart (async: every plan and apply takes W)');
if (ONLY.includes('unreachable')) await unreachable();
if (ONLY.includes('ci')) await slowRun('ci', 15, 75);
if (ONLY.includes('certify')) await slowRun('certify', 30, 4 * 30 + 60);
if (ONLY.includes('lost-result')) await lostResult(8, 120);
if (LONG && ONLY.includes('ci')) await slowRun('ci', 120, 3 * 120 + 30);
if (LONG && ONLY.includes('certify')) await slowRun('certify', 120, 3 * 120 + 60);
if (FIVE_MINUTES && (ONLY.includes('certify') || ONLY.includes('certify-5min'))) await slowRun('certify', 300, 3 * 300 + 60);
