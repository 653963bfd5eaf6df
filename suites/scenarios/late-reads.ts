import { now } from '../../src/client/clock.js';
import type { Transcript } from '../../src/transcript/transcript.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { operations } from '../../src/transcript/views.js';
import { probeRead, type ProbeRead } from '../probe-read.js';
import type { Suite, SuiteContext } from '../suite.js';

const SUITE = SITUATION_SUITES.lateReads;
/** Finished operations read again: the oldest first, and no more than a few of one suite, so that every suite's work is seen. */
const MAX_FINISHED = 48;
const MAX_FINISHED_PER_SUITE = 12;
const MAX_UNKNOWN = 8;
/** A final answer read again sooner than this many poll intervals is no later than the poller's own reads after it. */
const MIN_AGE_POLL_INTERVALS = 3;
/** Reads in flight at once: a handful, so that the late reads never become a burst of their own. */
const AT_ONCE = 8;

/**
 * Reads, once the other suites are done, what was read early in the run: finished operations, whose final answer
 * must still come back (or a 404 once forgotten), and the unknown ids, which must still be unknown. A provisioner
 * whose replica goes stale after a while, or that creates an id some time after it was read, only shows it late.
 */
export function lateReads(transcript: Transcript, pollIntervalMs: number): Suite | undefined {
  // Chosen once, so that the cases announced are the cases read; none to read, no suite.
  const targets = lateTargets(transcript, now() - MIN_AGE_POLL_INTERVALS * pollIntervalMs);
  if (targets.length === 0) return undefined;
  return {
    name: SUITE,
    cases: () => targets.length,
    run: (context) => readAll(context, targets),
  };
}

async function readAll(context: SuiteContext, targets: readonly ProbeRead[]): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < targets.length && !context.signal.aborted) {
      await probeRead(context, targets[next++]!);
      context.caseEnded?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, targets.length) }, worker));
}

/**
 * The reads to make: finished operations whose final answer came before `finalBefore` (epoch ms), oldest first,
 * then the unknown ids read so far.
 */
export function lateTargets(transcript: Transcript, finalBefore: number): ProbeRead[] {
  const finished = operations(transcript)
    .filter((op) => op.firstFinalReceivedAt !== undefined && op.firstFinalReceivedAt <= finalBefore)
    .sort((a, b) => a.firstFinalReceivedAt! - b.firstFinalReceivedAt!);
  const perSuite = new Map<string, number>();
  const reads: ProbeRead[] = [];
  for (const op of finished) {
    if (reads.length >= MAX_FINISHED) break;
    // Sub-cases of a property (`property/x#3.2`) are one suite.
    const suite = op.accepted.suite.replace(/#.*$/, '');
    const taken = perSuite.get(suite) ?? 0;
    if (taken >= MAX_FINISHED_PER_SUITE) continue;
    perSuite.set(suite, taken + 1);
    reads.push({ suite: SUITE, tag: 'read-after-final', operationId: op.operationId, path: encodeURIComponent(op.operationId) });
  }
  const unknown = new Set<string>();
  for (const exchange of transcript.exchanges) {
    if (unknown.size >= MAX_UNKNOWN) break;
    if (exchange.tag === 'read-unknown' && exchange.operationId !== undefined) unknown.add(exchange.operationId);
  }
  for (const id of unknown) reads.push({ suite: SUITE, tag: 'read-unknown', operationId: id, path: encodeURIComponent(id) });
  return reads;
}
