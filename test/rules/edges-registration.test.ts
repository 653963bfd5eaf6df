import { describe, expect, it } from 'vitest';
import { registrationBody, registrationMaxOperationDuration } from '../../src/rules/catalog/registration.js';
import type { JudgeContext } from '../../src/core/judge-context.js';
import type { Judgement } from '../../src/rules/types.js';
import { OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

const VALID = {
  name: 'postgres-provisioner',
  url: 'https://postgres-provisioner.example.com',
  types: [
    { kind: 'managed-resource', type: 'postgres' },
    { kind: 'managed-resource', type: 'redis' },
  ],
};

const empty = new TranscriptBuilder().transcript;

function registered(value: unknown, file = 'reg.json'): JudgeContext {
  return context({ registration: { file, json: { ok: true, value } } });
}

function brokenOf(judgement: Judgement): { message: string; notes: string[]; seqs: number[][] } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { message: judgement.message, notes: judgement.evidence.map((e) => e.note), seqs: judgement.evidence.map((e) => e.exchanges) };
}

describe('registration.body: messages', () => {
  it('counts the types of a complete document', () => {
    expect(registrationBody.judge(empty, registered(VALID))).toEqual({ outcome: 'held', message: 'reg.json has a name, an absolute http(s) url and 2 types' });
  });

  it('names a file that does not parse, and one that holds no object', () => {
    const unparsed = context({ registration: { file: 'reg.json', json: { ok: false, error: 'Unexpected token' } } });
    expect(brokenOf(registrationBody.judge(empty, unparsed)).message).toBe('reg.json is not JSON');
    const scalar = brokenOf(registrationBody.judge(empty, registered('postgres')));
    expect(scalar.message).toBe('reg.json is not a JSON object');
    expect(scalar.notes).toEqual(['reg.json holds a string, not a JSON object']);
  });

  it('counts the problems of an incomplete document', () => {
    expect(brokenOf(registrationBody.judge(empty, registered({ ...VALID, name: '' }))).message).toBe('reg.json is incomplete: 1 problem');
    expect(brokenOf(registrationBody.judge(empty, registered({ ...VALID, name: '', types: [] }))).message).toBe('reg.json is incomplete: 2 problems');
  });
});

describe('registration.max-operation-duration: messages', () => {
  function accepted(kind: 'plan' | 'apply' = 'apply'): TranscriptBuilder {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('plan', { error: { kind: 'reset', message: 'socket hang up' } });
    b.post(kind, { status: 202, body: { operationId: OP_ID } });
    return b;
  }

  it('does not read a document that is JSON but no object', () => {
    for (const value of [[{ maxOperationDuration: 'PT5M' }], 'PT5M', null]) {
      expect(registrationMaxOperationDuration.judge(accepted().transcript, registered(value))).toEqual({
        outcome: 'not-exercised',
        message: 'reg.json is not a JSON object, so maxOperationDuration could not be read (registration.body reports that)',
      });
    }
    const unparsed = context({ registration: { file: 'reg.json', json: { ok: false, error: 'Unexpected token' } } });
    expect(registrationMaxOperationDuration.judge(accepted().transcript, unparsed).message).toBe(
      'reg.json is not a JSON object, so maxOperationDuration could not be read (registration.body reports that)',
    );
  });

  it('says what it holds a valid duration to, and what is wrong with an invalid one', () => {
    expect(registrationMaxOperationDuration.judge(empty, registered({ ...VALID, maxOperationDuration: 'PT90S' }))).toEqual({
      outcome: 'held',
      message: 'reg.json registers maxOperationDuration PT90S (1m30s): above zero and at most PT30M',
    });
    const { message, notes, seqs } = brokenOf(registrationMaxOperationDuration.judge(empty, registered({ ...VALID, maxOperationDuration: 'soon' })));
    expect(message).toBe('reg.json has an invalid maxOperationDuration');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^reg\.json: maxOperationDuration: .*not an ISO 8601 duration/);
    expect(seqs).toEqual([[]]);
  });

  it('names the first call answered 202 when the duration is missing, past calls that got no answer', () => {
    const b = accepted('plan');
    const { notes, seqs } = brokenOf(registrationMaxOperationDuration.judge(b.transcript, registered(VALID)));
    expect(notes).toEqual(['POST /plan was answered 202, and reg.json has no maxOperationDuration to bound the wait']);
    expect(seqs).toEqual([[3]]);
  });

  it('needs none when no call was answered 202, even when one got no answer', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { error: { kind: 'timeout', message: 'no answer' } });
    expect(registrationMaxOperationDuration.judge(b.transcript, registered(VALID))).toEqual({
      outcome: 'held',
      message: 'reg.json has no maxOperationDuration; no 202 was answered, so none is needed',
    });
  });
});
