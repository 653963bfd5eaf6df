import type { RuleResult } from '../../src/rules/types.js';
import type { RunOutcome } from '../../src/runner/outcome.js';
import { IN_PROGRESS, shopDbFinal } from '../support/transcript-builder.js';
import { sampleOutcome } from './outcome-fixture.js';
import { TranscriptBuilder } from '../support/transcript-builder.js';

/** Suites of a default run against a slow provisioner, and how many operations each had accepted. */
const SUITES: ReadonlyArray<readonly [string, number]> = [
  ['scenario/plan-and-apply', 24],
  ['scenario/burst', 50],
  ['property/generated-plans', 200],
  ['property/model-based-runs-with-a-long-name-that-runs-into-the-reads', 210],
];

const READS = 8;

function operationId(n: number): string {
  return `${n.toString(16).padStart(8, '0')}-8b4d-4e5f-9a7b-1c2d3e4f5a6b`;
}

/**
 * A failing run at full size: 484 operations, each polled eight times to a final answer; all but the burst's
 * answer in_progress once more after it, so one rule fails with hundreds of cases.
 */
export function bigFailingOutcome(): RunOutcome {
  const b = new TranscriptBuilder();
  const evidence: RuleResult['evidence'] = [];
  let n = 0;
  for (const [suite, count] of SUITES) {
    for (let i = 0; i < count; i++, n++) {
      const id = operationId(n);
      const start = n * 20;
      const changeSet = `shop-db-${suite.split('/')[1]}-${i}`;
      const accepted = b.post('apply', { at: start, status: 202, body: { operationId: id }, suite, changeSet });
      for (let read = 1; read < READS; read++) b.read(id, { at: start + read * 1000, status: 200, body: IN_PROGRESS, suite });
      const final = b.read(id, { at: start + READS * 1000, status: 200, body: shopDbFinal(), suite });
      b.pollEnded(id, accepted.seq, 'final', start + READS * 1000 + 6);
      if (suite === 'scenario/burst') continue;
      const after = b.read(id, { at: start + READS * 1000 + 10, status: 200, body: IN_PROGRESS, suite, tag: 'read-after-final' });
      evidence.push({ note: `operation ${id}: a read after the final answer said in_progress`, exchanges: [final.seq, after.seq] });
    }
  }
  const small = sampleOutcome();
  const rules = small.rules.map((rule): RuleResult =>
    rule.id === 'operation.no-in-progress-after-final'
      ? { ...rule, message: `${evidence.length} reads sent after a final answer said in_progress`, evidence, count: evidence.length }
      : { ...rule, evidence: [] },
  );
  return { ...small, rules, operations: [], transcript: b.transcript, finishedAt: small.startedAt + n * 20 + READS * 1000 + 100 };
}
