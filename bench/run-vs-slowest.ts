/**
 * Prints how long a run takes against the reference provisioner compared with its slowest operation's
 * own duration, for growing numbers of change sets, plus the kit's CPU time per exchange next to the
 * floor, bare undici requests against the same server. The reference is served by a process of its own,
 * so the CPU time is the kit's alone. The ratio stays near 1 when change sets run concurrently.
 * Run: npm run bench
 */
import { DEFAULTS } from '../src/core/defaults.js';
import { msOfDuration } from '../src/core/duration.js';
import { driveAndJudge } from '../src/runner/drive-and-judge.js';
import { parseChangeSet, type LoadedChangeSet } from '../src/config/change-sets.js';
import { operations, isFinalAnswer } from '../src/transcript/views.js';
import { SCENARIOS } from '../suites/scenarios/index.js';
import { judgeRules } from '../src/rules/index.js';
import { serveReference } from './served-reference.js';
import { undiciFloorMs } from './undici-floor.js';

const WORK_MS = Number(process.env.BENCH_WORK_MS ?? 2000);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 200);
const SIZES = (process.env.BENCH_SIZES ?? '1,4,16').split(',').map(Number);
/** Enough requests that the floor is not a handful of samples of the loop's warm-up. */
const FLOOR_MIN_REQUESTS = 2000;

function changeSetText(i: number): string {
  // Distinct applications: the control plane's lock (one apply per application and environment) does not serialize them.
  return JSON.stringify({
    application: `bench-app-${i}`,
    environment: 'test',
    kind: 'managed-resource',
    type: 'postgres',
    changes: [{ id: `db-${i}`, environment: 'test', action: 'created', properties: { size: 'small' } }],
  });
}

function changeSets(count: number): LoadedChangeSet[] {
  return Array.from({ length: count }, (_, i) => parseChangeSet(`bench-${i}.json`, changeSetText(i), '/changes'));
}

async function measure(count: number): Promise<void> {
  const reference = await serveReference(['--mode', 'async', '--work', `PT${WORK_MS / 1000}S`]);
  try {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const outcome = await driveAndJudge({
      url: reference.url,
      headers: {},
      changeSets: changeSets(count),
      changesPointer: '/changes',
      maxOperationDuration: { ms: 60_000, text: 'PT1M', source: 'flag' },
      pollInterval: { text: `PT${POLL_MS / 1000}S`, ms: POLL_MS },
      answerTimeout: { text: DEFAULTS.answerTimeout, ms: msOfDuration(DEFAULTS.answerTimeout) },
      planOnly: false,
      strict: false,
      showSecrets: false,
      suites: SCENARIOS,
    });
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const ops = operations(outcome.transcript).filter((op) => op.finalReads.some(isFinalAnswer));
    const slowestMs = Math.max(...ops.map((op) => op.firstFinalReceivedAt! - op.acceptedAt));
    const exchanges = outcome.transcript.exchanges.length;
    const cpuPerExchangeMs = (cpu.user + cpu.system) / 1000 / exchanges;
    // The run judges its transcript once at its end; judging it again costs the same and shows that share.
    const judgeBefore = process.cpuUsage();
    judgeRules(outcome.transcript, outcome.context);
    const judge = process.cpuUsage(judgeBefore);
    const judgeMs = (judge.user + judge.system) / 1000 / exchanges;
    const floorMs = await undiciFloorMs(reference.url, changeSetText(count), Math.max(exchanges, FLOOR_MIN_REQUESTS));
    console.log(
      [
        `change sets ${String(count).padStart(3)}`,
        `operations ${String(ops.length).padStart(3)}`,
        `wall ${(wallMs / 1000).toFixed(2)}s`,
        `slowest operation ${(slowestMs / 1000).toFixed(2)}s`,
        `ratio ${(wallMs / slowestMs).toFixed(2)}`,
        `(slowest + 1 poll interval: ${((slowestMs + POLL_MS) / 1000).toFixed(2)}s)`,
        `exchanges ${exchanges}`,
        `kit CPU ${cpuPerExchangeMs.toFixed(3)} ms/exchange`,
        `(judging ${judgeMs.toFixed(3)})`,
        `undici floor ${floorMs.toFixed(3)} ms/request`,
        `verdict ${outcome.verdict}`,
      ].join('  '),
    );
  } finally {
    await reference.close();
  }
}

console.log(`reference provisioner (serve, a process of its own): async, work ${WORK_MS} ms; poll interval ${POLL_MS} ms`);
for (const size of SIZES) await measure(size);
