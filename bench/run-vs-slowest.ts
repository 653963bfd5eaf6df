/**
 * Prints how long a run takes against the reference provisioner compared with its slowest operation's
 * own duration, for growing numbers of change sets, plus the kit's CPU time per exchange.
 * The ratio stays near 1 when change sets run concurrently. Run: npm run bench
 */
import { startReferenceProvisioner } from '../src/reference/index.js';
import { runConformance } from '../src/runner/run.js';
import { parseChangeSet, type LoadedChangeSet } from '../src/config/change-sets.js';
import { operations, isFinalAnswer } from '../src/transcript/views.js';
import { SCENARIOS } from '../suites/scenarios/index.js';

const WORK_MS = Number(process.env.BENCH_WORK_MS ?? 2000);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 200);
const SIZES = (process.env.BENCH_SIZES ?? '1,4,16').split(',').map(Number);

function changeSets(count: number): LoadedChangeSet[] {
  // Distinct applications: the control plane's lock (one apply per application and environment) does not serialize them.
  return Array.from({ length: count }, (_, i) =>
    parseChangeSet(
      `bench-${i}.json`,
      JSON.stringify({
        application: `bench-app-${i}`,
        environment: 'test',
        kind: 'managed-resource',
        type: 'postgres',
        changes: [{ id: `db-${i}`, environment: 'test', action: 'created', properties: { size: 'small' } }],
      }),
      '/changes',
    ),
  );
}

async function measure(count: number): Promise<void> {
  const reference = await startReferenceProvisioner({ mode: 'async', workMs: WORK_MS });
  try {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const outcome = await runConformance({
      url: reference.url,
      headers: {},
      changeSets: changeSets(count),
      changesPointer: '/changes',
      maxOperationDuration: { ms: 60_000, text: 'PT1M', source: 'flag' },
      pollIntervalMs: POLL_MS,
      answerTimeoutMs: 10_000,
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
        `verdict ${outcome.verdict}`,
      ].join('  '),
    );
  } finally {
    await reference.close();
  }
}

console.log(`reference provisioner: async, work ${WORK_MS} ms; poll interval ${POLL_MS} ms`);
for (const size of SIZES) await measure(size);
