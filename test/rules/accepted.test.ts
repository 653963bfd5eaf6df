import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { acceptedBody, acceptedOnlyOperationId, acceptedOperationIdRandom, acceptedOperationIdUnique, acceptedOperationIdUuid, RULES } from '../../src/rules/catalog/accepted.js';
import type { Judgement } from '../../src/rules/types.js';
import { OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['accepted.body', 'MUST'],
  ['accepted.only-operation-id', 'SHOULD'],
  ['accepted.operation-id-uuid', 'MUST'],
  ['accepted.operation-id-unique', 'MUST'],
  ['accepted.operation-id-random', 'SHOULD'],
]);

const OTHER_ID = '0b9e1f7c-2d4a-4c8e-b1f3-7a6d5e4c3b2a';
const V1_ID = 'c232ab00-9414-11ec-b3c8-9e6bdeced846';
const V5_ID = '2ed6657d-e927-568b-95e1-2665a8aea6a2';
const V7_ID = '018f3c1e-7b2a-7c4d-8e5f-0a1b2c3d4e5f';
function brokenParts(judgement: Judgement): { seqs: number[][]; notes: string[]; count?: number } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { seqs: judgement.evidence.map((e) => e.exchanges), notes: judgement.evidence.map((e) => e.note), count: judgement.count };
}

function accepting(...ids: unknown[]): TranscriptBuilder {
  const b = new TranscriptBuilder();
  for (const id of ids) b.post('apply', { status: 202, body: { operationId: id } });
  return b;
}

describe('accepted.body', () => {
  it('holds when each 202 has a string operationId', () => {
    expect(acceptedBody.judge(accepting(OP_ID, OTHER_ID).transcript, context())).toEqual({ outcome: 'held', message: '2 answers with status 202, each with a string operationId' });
  });

  it('counts the 202 answers that lack a string operationId among those judged', () => {
    const b = accepting(OP_ID);
    b.post('apply', { status: 202, body: { id: OTHER_ID } });
    expect(acceptedBody.judge(b.transcript, context())).toMatchObject({ outcome: 'broken', count: 1, message: '1 of 2 answers with status 202 lack a string operationId' });
  });

  it('is broken by a missing or non-string operationId', () => {
    const b = accepting(OP_ID);
    b.post('apply', { status: 202, body: { id: OTHER_ID } });
    b.post('apply', { status: 202, body: { operationId: 42 } });
    const { seqs, notes } = brokenParts(acceptedBody.judge(b.transcript, context()));
    expect(seqs).toEqual([[2], [3]]);
    expect(notes[0]).toBe('the 202 answer to POST /apply has no operationId (fields: id)');
    expect(notes[1]).toMatch(/a number \(42\), not a string/);
  });

  it('leaves bodies that are not JSON objects to answer.json', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: 'accepted', contentType: 'text/plain' });
    expect(acceptedBody.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no 202 answer had a JSON object body (answer.json reports those)',
    });
  });

  it('is not applicable when every call was answered at once, and not exercised when no call was answered 200 or 202', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    expect(acceptedBody.judge(b.transcript, context())).toEqual({
      outcome: 'not-applicable',
      message: 'the one plan or apply call was answered 200 at once: no 202 answer to judge',
    });
    const refused = new TranscriptBuilder();
    refused.post('plan', { status: 500, body: {} });
    expect(acceptedBody.judge(refused.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'the provisioner never answered 202' });
  });
});

describe('accepted.only-operation-id', () => {
  it('holds for bodies with operationId alone', () => {
    expect(acceptedOnlyOperationId.judge(accepting(OP_ID).transcript, context())).toEqual({ outcome: 'held', message: '1 answer with status 202, each holding only operationId' });
  });

  it('counts the 202 answers holding more than operationId among those judged', () => {
    const b = accepting(OP_ID, OTHER_ID);
    b.post('plan', { status: 202, body: { operationId: OTHER_ID, status: 'accepted' } });
    expect(acceptedOnlyOperationId.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      count: 1,
      message: '1 of 3 answers with status 202 hold more than operationId',
    });
  });

  it('is broken by extra fields and names them', () => {
    const b = accepting(OP_ID);
    b.post('plan', { status: 202, body: { operationId: OTHER_ID, status: 'accepted', href: '/x' } });
    const { seqs, notes } = brokenParts(acceptedOnlyOperationId.judge(b.transcript, context()));
    expect(seqs).toEqual([[2]]);
    expect(notes[0]).toBe('the 202 answer to POST /plan holds fields besides operationId: status, href');
  });

  it('is not exercised when no 202 carried a string operationId', () => {
    const j = acceptedOnlyOperationId.judge(accepting(7).transcript, context());
    expect(j.outcome).toBe('not-exercised');
    expect(acceptedOnlyOperationId.judge(new TranscriptBuilder().transcript, context()).message).toMatch(/never answered 202/);
  });
});

describe('accepted.operation-id-uuid', () => {
  it('holds for canonical UUIDs, upper case accepted', () => {
    expect(acceptedOperationIdUuid.judge(accepting(OP_ID, OTHER_ID.toUpperCase()).transcript, context()).outcome).toBe('held');
  });

  it('is broken by the nil UUID, a non-UUID and a wrong variant', () => {
    const b = accepting(OP_ID, '00000000-0000-0000-0000-000000000000', 'op-17', '6f1c2a3e-8b4d-4e5f-ca7b-1c2d3e4f5a6b', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF');
    const { seqs, notes } = brokenParts(acceptedOperationIdUuid.judge(b.transcript, context()));
    expect(seqs).toEqual([[2], [3], [4], [5]]);
    expect(notes[0]).toBe('operationId "00000000-0000-0000-0000-000000000000" from POST /apply is the nil UUID (all zeros)');
    expect(notes[1]).toMatch(/"op-17" .*8-4-4-4-12/);
    expect(notes[2]).toMatch(/variant/);
    expect(notes[3]).toMatch(/max UUID/);
  });

  it('is not exercised without a 202', () => {
    expect(acceptedOperationIdUuid.judge(new TranscriptBuilder().transcript, context()).outcome).toBe('not-exercised');
  });
});

describe('accepted.operation-id-unique', () => {
  it('holds when every id differs', () => {
    expect(acceptedOperationIdUnique.judge(accepting(OP_ID, OTHER_ID).transcript, context()).outcome).toBe('held');
  });

  it('is broken by a repeated id, with the repeat first and the original second', () => {
    const b = accepting(OP_ID, OTHER_ID, OP_ID, OTHER_ID.toUpperCase());
    const { seqs, notes, count } = brokenParts(acceptedOperationIdUnique.judge(b.transcript, context()));
    expect(seqs).toEqual([
      [3, 1],
      [4, 2],
    ]);
    expect(notes[0]).toBe(`POST /apply (seq 3) answered operationId ${OP_ID}, already given to POST /apply (seq 1)`);
    expect(count).toBe(2);
  });

  it('is not exercised without a 202, and not applicable when every call was answered at once', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { error: { kind: 'reset', message: 'socket hang up' } });
    expect(acceptedOperationIdUnique.judge(b.transcript, context()).outcome).toBe('not-exercised');
    b.post('plan', { body: shopDbFinal() });
    expect(acceptedOperationIdUnique.judge(b.transcript, context())).toEqual({
      outcome: 'not-applicable',
      message: 'every plan and apply call answered 200 or 202 was answered 200 at once (1 of 2 calls; the other one got another status or no answer): no 202 answer to judge',
    });
  });
});

describe('accepted.operation-id-random', () => {
  it('holds for 500 random v4 ids', () => {
    const b = accepting(...Array.from({ length: 500 }, () => randomUUID()));
    const j = acceptedOperationIdRandom.judge(b.transcript, context());
    expect(j.outcome).toBe('held');
    expect(j.message).toBe('500 operationIds, all version 4 UUIDs with no visible pattern');
  });

  it('names the version and what it means for v7, v1 and v5 ids', () => {
    const b = accepting(OP_ID, V7_ID, V1_ID, V5_ID);
    const { seqs, notes } = brokenParts(acceptedOperationIdRandom.judge(b.transcript, context()));
    expect(seqs).toEqual([[2], [3], [4]]);
    expect(notes[0]).toMatch(/is a version 7 UUID \(time-ordered/);
    expect(notes[1]).toMatch(/is a version 1 UUID \(time and MAC address based\)/);
    expect(notes[2]).toMatch(/is a version 5 UUID \(name-based/);
  });

  it('counts each sign in the message, and says in each note which id is not version 4', () => {
    const b = accepting(OP_ID, V1_ID, '12345678-9abc-4def-8123-456789abcdef', '12345678-9abc-4def-9fed-cba987654321');
    const judgement = acceptedOperationIdRandom.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', count: 2, message: '2 signs that operationIds do not come from a random source' });
    const { notes } = brokenParts(judgement);
    expect(notes[0]).toBe(`operationId ${V1_ID} from POST /apply is a version 1 UUID (time and MAC address based), not version 4 (random)`);
    expect(notes[1]).toBe(
      'operationIds 12345678-9abc-4def-9fed-cba987654321 (seq 4) and 12345678-9abc-4def-8123-456789abcdef (seq 3) share their first 16 hex digits (123456789abc4def)',
    );
  });

  it('is broken by v4-looking ids that follow a pattern', () => {
    const b = accepting('12345678-9abc-4def-8123-456789abcdef', '12345678-9abc-4def-9fed-cba987654321', 'd3b07384-d113-4ec4-9f00-0000000000e7');
    const { seqs, notes } = brokenParts(acceptedOperationIdRandom.judge(b.transcript, context()));
    expect(seqs).toEqual([[2, 1], [3]]);
    expect(notes[0]).toMatch(/share their first 16 hex digits/);
    expect(notes[1]).toMatch(/has 12 "0" digits in a row/);
  });

  it('leaves repeats and unsound ids to the other rules', () => {
    const repeated = accepting(OP_ID, OP_ID);
    expect(acceptedOperationIdRandom.judge(repeated.transcript, context()).outcome).toBe('held');
    const nil = accepting('00000000-0000-0000-0000-000000000000', 'op-1');
    expect(acceptedOperationIdRandom.judge(nil.transcript, context()).outcome).toBe('not-exercised');
  });

  it('is not exercised without a 202', () => {
    expect(acceptedOperationIdRandom.judge(new TranscriptBuilder().transcript, context()).message).toMatch(/never answered 202/);
  });
});
