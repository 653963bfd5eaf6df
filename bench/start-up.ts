/**
 * Start-up of the commands that do little (`--help`, `--version`, `rules`) against Node's own (`node -e 0`):
 * each command runs as a whole process, in turn with the yardstick, and the median of the pair ratios is
 * printed, so the figure holds when a shared machine's speed drifts. Run: npm run bench:start-up
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'provisioner-conformance.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const COMMANDS = [['--help'], ['--version'], ['rules'], ['run', '--help']];
const YARDSTICK = ['-e', '0'];

function wallMs(args: readonly string[]): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${String(child.status)}: ${child.stderr.toString().trim()}`);
  return ms;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

console.log(`node ${process.version}, ${RUNS} runs of each command in turn with node -e 0 (one warm-up each), medians`);
for (const command of COMMANDS) {
  const args = [BIN, ...command];
  wallMs(args);
  wallMs(YARDSTICK);
  const pairs = Array.from({ length: RUNS }, () => ({ command: wallMs(args), yardstick: wallMs(YARDSTICK) }));
  console.log(
    [
      command.join(' ').padEnd(10),
      `${median(pairs.map((pair) => pair.command)).toFixed(0).padStart(4)} ms`,
      `node -e 0 ${median(pairs.map((pair) => pair.yardstick)).toFixed(0).padStart(4)} ms`,
      `ratio ${median(pairs.map((pair) => pair.command / pair.yardstick)).toFixed(2)}`,
    ].join('  '),
  );
}
