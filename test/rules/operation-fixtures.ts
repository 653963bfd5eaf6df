import type { Evidence, Judgement } from '../../src/rules/types.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, shopDbFinal } from '../support/transcript-builder.js';

/** The life of one operation, as the rules about reads of it see it. */

/** A 202 at 0 ms that ends at 5 ms: seq 1. */
export function accepted(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
  return b;
}

/** A 202, an in_progress poll, and a final poll sent at 1000 ms that arrives at 1005 ms. */
export function finished(answer: Record<string, unknown> = shopDbFinal()) {
  const b = accepted();
  b.read(OP_ID, { at: 10, body: IN_PROGRESS });
  const final = b.read(OP_ID, { at: 1000, body: answer });
  return { b, final };
}

export function evidenceOf(judgement: Judgement): Evidence[] {
  return judgement.outcome === 'broken' ? judgement.evidence : [];
}
