import { sleep } from '../../src/client/clock.js';
import { READS_BEFORE_GIVING_UP } from '../../src/rules/support/unanswered-ids.js';
import { isTransient } from '../../src/transcript/views.js';
import { probeRead } from '../probe-read.js';
import type { Suite, SuiteContext } from '../suite.js';

const SUITE = 'scenario/malformed-ids';

// Three UUIDs joined: long and shaped like ids, as a provisioner that splits or prefixes ids may meet them.
const JOINED = ['6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b', '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d', '3c9d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f'].join('-');

/** Ids that are not UUIDs, already encoded for the path: a word, near-UUIDs, long segments, encoded slashes. */
export const MALFORMED_IDS: ReadonlyArray<{ raw: string; path: string }> = [
  { raw: 'not-a-uuid', path: 'not-a-uuid' },
  { raw: '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6', path: '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6' },
  { raw: '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6bz', path: '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6bz' },
  { raw: 'a'.repeat(300), path: 'a'.repeat(300) },
  { raw: JOINED, path: JOINED },
  { raw: ' ', path: '%20' },
  { raw: 'x/../../plan', path: 'x%2F..%2F..%2Fplan' },
];

/**
 * Reads ids that are not UUIDs: the answer must be a clean 400 or 404. A 5xx, a timeout or a refused connection is
 * no answer, so, as for unknown ids, the id is read again one poll interval later, up to a few times in a row.
 */
export const malformedIds: Suite = {
  name: SUITE,
  cases: () => MALFORMED_IDS.length,
  async run(context): Promise<void> {
    await Promise.all(
      MALFORMED_IDS.map(async (id) => {
        await readMalformed(context, id);
        context.caseEnded?.();
      }),
    );
  },
};

async function readMalformed(context: SuiteContext, id: { raw: string; path: string }): Promise<void> {
  for (let reads = 1; !context.signal.aborted; reads++) {
    const read = await probeRead(context, { suite: SUITE, tag: 'read-malformed', operationId: id.raw, path: id.path });
    if (!isTransient(read) || reads >= READS_BEFORE_GIVING_UP) return;
    await sleep(context.poller.pollIntervalMs, context.signal);
  }
}
