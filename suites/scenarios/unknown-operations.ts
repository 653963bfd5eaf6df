import { randomUUID } from 'node:crypto';
import { sleep } from '../../src/client/clock.js';
import { READS_BEFORE_GIVING_UP } from '../../src/rules/support/unanswered-ids.js';
import { isTransient } from '../../src/transcript/views.js';
import { probeRead } from '../probe-read.js';
import type { Suite, SuiteContext } from '../suite.js';

const SUITE = 'scenario/unknown-operations';
const UNKNOWN_IDS = 2;
/** Answered reads of each id: the second shows whether the first created it. */
const ANSWERS_WANTED = 2;

/**
 * Reads random UUIDs the provisioner never issued until each has been answered twice: the second answer shows
 * whether the first read created it. A 5xx, a timeout or a refused connection is no answer, so, as the control
 * plane would, the id is read again one poll interval later, up to a few times in a row. The waits are this
 * suite's own: the other suites go on meanwhile.
 */
export const unknownOperations: Suite = {
  name: SUITE,
  cases: () => UNKNOWN_IDS,
  async run(context): Promise<void> {
    await Promise.all(
      Array.from({ length: UNKNOWN_IDS }, async () => {
        await readUnknown(context, randomUUID());
        context.caseEnded?.();
      }),
    );
  },
};

async function readUnknown(context: SuiteContext, id: string): Promise<void> {
  let answers = 0;
  let failuresInRow = 0;
  while (answers < ANSWERS_WANTED && !context.signal.aborted) {
    const read = await probeRead(context, { suite: SUITE, tag: 'read-unknown', operationId: id });
    if (!isTransient(read)) {
      answers++;
      failuresInRow = 0;
      continue;
    }
    if (++failuresInRow >= READS_BEFORE_GIVING_UP) return;
    await sleep(context.poller.pollIntervalMs, context.signal);
  }
}
