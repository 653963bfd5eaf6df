import { randomUUID } from 'node:crypto';
import type { Suite } from '../suite.js';

const SUITE = 'scenario/unknown-operations';
const UNKNOWN_IDS = 2;

/** Reads random UUIDs the provisioner never issued, each twice: the second read shows whether the first created it. */
export const unknownOperations: Suite = {
  name: SUITE,
  cases: () => UNKNOWN_IDS,
  async run(context): Promise<void> {
    await Promise.all(
      Array.from({ length: UNKNOWN_IDS }, async () => {
        const id = randomUUID();
        for (let read = 0; read < 2; read++) {
          await context.client.send({
            suite: SUITE,
            tag: 'read-unknown',
            probe: true,
            method: 'GET',
            path: `/operations/${id}`,
            operationId: id,
            timeoutMs: context.readTimeoutMs,
            signal: context.signal,
          });
        }
        context.caseEnded?.();
      }),
    );
  },
};
