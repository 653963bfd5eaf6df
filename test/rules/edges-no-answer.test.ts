import { describe, expect, it } from 'vitest';
import { judgeRules } from '../../src/rules/index.js';
import type { RuleResult } from '../../src/rules/types.js';
import { IN_PROGRESS, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

const ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const OTHER = '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d';

/** A run where calls and reads fail at the transport level between ordinary answers, first thing and last. */
function unanswered(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('plan', { error: { kind: 'timeout', message: 'headers timeout' } });
  b.post('apply', { error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
  b.post('plan', { body: shopDbFinal() });
  const accepted = b.post('apply', { status: 202, body: { operationId: ID } });
  b.read(ID, { error: { kind: 'reset', message: 'socket hang up' } });
  b.read(ID, { body: IN_PROGRESS });
  b.read(ID, { status: 503, body: {} });
  b.read(ID, { body: shopDbFinal() });
  b.read(ID, { error: { kind: 'timeout', message: 'no answer' }, tag: 'read-after-final' });
  b.pollEnded(ID, accepted.seq, 'final', 1000);
  const second = b.post('plan', { status: 202, body: { operationId: OTHER } });
  b.read(OTHER, { error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
  b.read(OTHER, { body: shopDbFinal() });
  b.pollEnded(OTHER, second.seq, 'final', 2000);
  b.post('apply', { error: { kind: 'reset', message: 'socket hang up' } });
  return b;
}

function statuses(results: RuleResult[]): Record<string, string> {
  return Object.fromEntries(results.map((r) => [r.id, r.status]));
}

describe('calls and reads that got no answer', () => {
  it('are judged by every rule without a kit error, and counted only where they count', () => {
    const registration = { file: 'reg.json', json: { ok: true as const, value: { name: 'p', url: 'https://p.example.com', types: [{ kind: 'k', type: 't' }] } } };
    const results = judgeRules(unanswered().transcript, context({ registration }));
    expect(results.filter((r) => r.status === 'error').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    expect(statuses(results)).toMatchObject({
      'answer.status': 'fail',
      'answer.json': 'pass',
      'accepted.body': 'pass',
      'accepted.only-operation-id': 'pass',
      'final.body': 'pass',
      'operation.status': 'pass',
      'operation.transient-errors': 'warn',
      'operation.body': 'pass',
      'operation.in-progress-results-empty': 'pass',
      'operation.in-progress-description': 'pass',
      'operation.not-lost': 'pass',
      'registration.max-operation-duration': 'fail',
    });
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(byId.get('answer.status')!.message).toBe('3 of 6 plan or apply calls (not the burst\'s calls, repeats, calls refused under load or calls around the restart) did not get 200 or 202');
    expect(byId.get('accepted.body')!.message).toMatch(/^2 /);
    expect(byId.get('final.body')!.message).toMatch(/^1 answer with status 200/);
    expect(byId.get('operation.body')!.message).toBe('3 reads answered 200, all with a JSON outcome object');
    expect(byId.get('registration.max-operation-duration')!.evidence.map((e) => e.exchanges)).toEqual([[4]]);
  });
});
