import { describe, expect, it } from 'vitest';
import { judgeRules } from '../../src/rules/index.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context } from '../support/transcript-builder.js';

/**
 * The rules whose sentence says "never 5xx". A 5xx or a timeout is no answer, so a malformed id is read again and a
 * bad body sent again, like an unknown id; the 5xx counts once it is all the id or body got over two poll
 * intervals while the provisioner answered other calls.
 */

const RULE_IDS = ['operation.malformed-id', 'input.malformed-json', 'input.invalid-change-set'] as const;

function probes(answer: { status: number; body: unknown }): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
  b.read(OP_ID, { at: 5, body: IN_PROGRESS });
  for (const id of ['not-a-uuid', 'a%2Fb']) for (const at of [0, 1000, 2000]) b.read(id, { ...answer, at, tag: 'read-malformed' });
  for (const at of [0, 1000, 2000]) {
    b.badInput('plan', { ...answer, at, requestBody: '{"changes": [', suite: 'property/malformed-json#1' }, 'malformed-json');
    b.badInput('plan', { ...answer, at, requestBody: '{"changes": 7}', suite: 'property/invalid-change-set#1' }, 'invalid-change-set');
  }
  return b;
}

function statuses(b: TranscriptBuilder): Record<string, string> {
  const results = judgeRules(b.transcript, context());
  return Object.fromEntries(RULE_IDS.map((id) => [id, results.find((r) => r.id === id)!.status]));
}

describe('rules that forbid a 5xx outright', () => {
  it('hold when every probe is refused with a 4xx', () => {
    expect(statuses(probes({ status: 400, body: { error: 'bad request' } }))).toEqual({
      'operation.malformed-id': 'pass',
      'input.malformed-json': 'pass',
      'input.invalid-change-set': 'pass',
    });
  });

  it.each([500, 502, 503])('do not hold when every probe answers %i, and say so with each probe as evidence', (status) => {
    const b = probes({ status, body: '' });
    expect(statuses(b)).toEqual({
      'operation.malformed-id': 'warn',
      'input.malformed-json': 'warn',
      'input.invalid-change-set': 'warn',
    });
    const results = judgeRules(b.transcript, context());
    expect(results.find((r) => r.id === 'operation.malformed-id')!.evidence.map((e) => e.note)).toEqual([
      `every read of the malformed id "not-a-uuid" answered ${status} (3 reads over 2.0s), while 1 read of known operations made meanwhile answered 200`,
      `every read of the malformed id "a%2Fb" answered ${status} (3 reads over 2.0s), while 1 read of known operations made meanwhile answered 200`,
    ]);
    expect(results.find((r) => r.id === 'input.malformed-json')!.message).toBe('1 body got nothing but 5xx or no answer while other calls were answered');
    expect(results.find((r) => r.id === 'input.invalid-change-set')!.evidence.map((e) => e.note)).toEqual([
      `POST /plan with "{\\"changes\\": 7}" answered ${status} (3 sends over 2.0s), while 2 other calls made meanwhile were answered (1×202, 1×200)`,
    ]);
  });
});
