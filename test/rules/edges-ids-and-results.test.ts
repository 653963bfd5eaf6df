import { describe, expect, it } from 'vitest';
import { acceptedOperationIdRandom, acceptedOperationIdUnique, acceptedOperationIdUuid } from '../../src/rules/catalog/accepted.js';
import { answerPrompt, answerStatus } from '../../src/rules/catalog/answers.js';
import { finalOutcomeConsistent, finalResultShape, finalResultsMatchChanges } from '../../src/rules/catalog/final.js';
import { operationInProgressDescription, operationInProgressResultsEmpty } from '../../src/rules/catalog/operation-answers.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { IN_PROGRESS, OP_ID, SHOP_DB, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { accepted } from './operation-fixtures.js';

/**
 * The rules about operationIds and about results at their edges: the messages a person reads when
 * they hold, the singular and plural, ids that differ only in case, results matched to changes that
 * cannot be known. Shape checks are left to the schema-driven tests.
 */

const OTHER_ID = '0b9e1f7c-2d4a-4c8e-b1f3-7a6d5e4c3b2a';
const V7_ID = '018f3c1e-7b2a-7c4d-8e5f-0a1b2c3d4e5f';

function accepting(...ids: unknown[]): TranscriptBuilder {
  const b = new TranscriptBuilder();
  for (const id of ids) b.post('apply', { status: 202, body: { operationId: id } });
  return b;
}

describe('operationIds', () => {
  it('say how many were judged when they hold', () => {
    const b = accepting(OP_ID, OTHER_ID);
    expect(acceptedOperationIdUuid.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '2 operationIds, all canonical UUIDs with the RFC 9562 variant' });
    expect(acceptedOperationIdUnique.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '2 operationIds from 202 answers, all different' });
  });

  it('count the ids that are not sound UUIDs', () => {
    const b = accepting(OP_ID, 'op-1');
    expect(acceptedOperationIdUuid.judge(b.transcript, context())).toEqual({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 operationIds are not sound UUIDs',
      evidence: [{ note: 'operationId "op-1" from POST /apply is not a UUID in the canonical 8-4-4-4-12 hex form', exchanges: [2] }],
    });
  });

  it('count an id given again, in any case, once per repeat', () => {
    const b = accepting(OP_ID, OP_ID.toUpperCase(), OTHER_ID, 'op-1', 'op-1');
    expect(acceptedOperationIdUnique.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      count: 2,
      message: '2 operationIds given more than once',
      evidence: [{ exchanges: [2, 1] }, { note: 'POST /apply (seq 5) answered operationId op-1, already given to POST /apply (seq 4)', exchanges: [5, 4] }],
    });
    expect(acceptedOperationIdUnique.judge(accepting(OP_ID, OP_ID).transcript, context())).toMatchObject({ message: '1 operationId given more than once' });
  });

  it('say why they were not judged when no 202 carried a string id', () => {
    const b = accepting(7);
    expect(acceptedOperationIdUnique.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no 202 answer carried a string operationId (accepted.body reports that)',
    });
    expect(acceptedOperationIdRandom.judge(accepting('op-1').transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no operationId was a sound UUID, so its source could not be judged (accepted.operation-id-uuid reports that)',
    });
  });

  it('name both ids of a shared prefix and the one id of a run, with their seqs', () => {
    const b = accepting('12345678-9abc-4def-8123-456789abcdef', '12345678-9abc-4def-9fed-cba987654321', 'd3b07384-d113-4ec4-9f00-0000000000e7');
    expect(acceptedOperationIdRandom.judge(b.transcript, context())).toEqual({
      outcome: 'broken',
      count: 2,
      message: '2 signs that operationIds do not come from a random source',
      evidence: [
        {
          note: 'operationIds 12345678-9abc-4def-9fed-cba987654321 (seq 2) and 12345678-9abc-4def-8123-456789abcdef (seq 1) share their first 16 hex digits (123456789abc4def)',
          exchanges: [2, 1],
        },
        { note: 'operationId d3b07384-d113-4ec4-9f00-0000000000e7 (seq 3) has 12 "0" digits in a row', exchanges: [3] },
      ],
    });
  });

  it('look for patterns among distinct version 4 ids only', () => {
    // A v7 id shares its prefix with the v4 id after it: the version is reported, not a pattern.
    const b = accepting(V7_ID, '018f3c1e-7b2a-4c4d-8e5f-9f8e7d6c5b4a', OP_ID, OP_ID);
    expect(acceptedOperationIdRandom.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      count: 1,
      message: '1 sign that operationIds do not come from a random source',
      evidence: [{ exchanges: [1] }],
    });
  });
});

describe('results matched to changes', () => {
  it('says why an answer could not be matched: no change set named, or one the run does not know', () => {
    const b = new TranscriptBuilder();
    const unnamed = b.post('plan', { body: shopDbFinal() });
    b.post('plan', { body: shopDbFinal(), changeSet: 'stranger' });
    const transcript = new Transcript([{ ...unnamed, changeSet: undefined }, b.transcript.exchanges[1]!]);
    expect(finalResultsMatchChanges.judge(transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: `no final answer could be matched to its changes: seq ${unnamed.seq} names no change set; change set stranger is not known to the run`,
    });
    const unreadable = context({ changeSets: [{ name: 'stranger' }] });
    expect(finalResultsMatchChanges.judge(b.transcript, unreadable)).toMatchObject({
      message: 'no final answer could be matched to its changes: change set shop-db is not known to the run; the changes of stranger could not be read: no reason given',
    });
  });

  it('lists every problem of an answer, and counts an extra result given more than once', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    const extra = { id: 'cache', environment: 'test', outcome: 'succeeded', description: 'd' };
    b.post('plan', { body: { outcome: 'succeeded', description: 'd', results: [extra, extra, { id: 'shop-db' }] } });
    b.post('plan', { body: { outcome: 'failed', description: 'd', results: 'none' } });
    expect(finalResultsMatchChanges.judge(b.transcript, context())).toEqual({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 final answers do not hold exactly one result per change',
      evidence: [
        {
          note: 'POST /plan (seq 2, succeeded) for change set shop-db: result 2 (shop-db) has no string id and environment to match; no result for "shop-db" in "test"; extra result "cache" in "test" (2 times), not a change of the set',
          exchanges: [2],
        },
      ],
    });
  });

  it('shows the code points of a result answered under a normalised form of its change\'s text', () => {
    const b = new TranscriptBuilder();
    const compatibility = '\u{2F800}';
    b.post('plan', { body: { outcome: 'succeeded', description: 'd', results: [{ id: compatibility.normalize('NFC'), environment: 'test', outcome: 'succeeded', description: 'd' }] } });
    const unicode = context({ changeSets: [{ name: 'shop-db', changes: [{ id: compatibility, environment: 'test' }] }] });
    const judgement = finalResultsMatchChanges.judge(b.transcript, unicode);
    if (judgement.outcome !== 'broken') throw new Error(judgement.message);
    expect(judgement.evidence[0]!.note).toBe(
      `POST /plan (seq 1, succeeded) for change set shop-db: no result for "${compatibility}" in "test"; extra result "\u4E3D" in "test", not a change of the set; ` +
        'the extra result is the missing one with its text normalised: U+2F800 was answered as U+4E3D',
    );
  });

  it('shows every text answered in another form, each code point padded to four digits', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: { outcome: 'succeeded', description: 'd', results: [{ id: 'fi', environment: 'test', outcome: 'succeeded', description: 'd' }] } });
    b.transcript.exchanges[0]!.changeSet = 'ligatures';
    const ligatures = context({ changeSets: [{ name: 'ligatures', changes: [{ id: '\uFB01', environment: '\uFF54est' }] }] });
    const judgement = finalResultsMatchChanges.judge(b.transcript, ligatures);
    if (judgement.outcome !== 'broken') throw new Error(judgement.message);
    expect(judgement.evidence[0]!.note).toBe(
      'POST /plan (seq 1, succeeded) for change set ligatures: no result for "\uFB01" in "\uFF54est"; extra result "fi" in "test", not a change of the set; ' +
        'the extra result is the missing one with its text normalised: U+FB01 was answered as U+0066 U+0069; U+FF54 U+0065 U+0073 U+0074 was answered as U+0074 U+0065 U+0073 U+0074',
    );
  });

  it('says every reason a final answer was skipped for', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('plan', { body: shopDbFinal(), changeSet: 'stranger' });
    b.post('plan', { body: shopDbFinal(), changeSet: 'other stranger' });
    expect(finalResultsMatchChanges.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message:
        '1 final answer, each with one result per change (skipped where change set stranger is not known to the run; change set other stranger is not known to the run)',
    });
  });

  it('judges no result shape without a final answer that holds a results array', () => {
    expect(finalResultShape.judge(new TranscriptBuilder().transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no final answer with a results array was received',
    });
  });

  it('says which changes were skipped beside the ones that held', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('plan', { body: shopDbFinal(), changeSet: 'stranger' });
    expect(finalResultsMatchChanges.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 final answer, each with one result per change (skipped where change set stranger is not known to the run)',
    });
    expect(finalResultsMatchChanges.judge(new TranscriptBuilder().transcript, context({ changeSets: [SHOP_DB] }))).toEqual({
      outcome: 'not-exercised',
      message: 'no final answer with a results array was received',
    });
  });
});

describe('overall outcomes', () => {
  const failedResult = (id: string) => ({ id, environment: 'test', outcome: 'failed', description: 'd' });

  it('judges answers with at least one result that has an outcome, and names every failed result', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('plan', { body: { outcome: 'succeeded', description: 'd', results: [failedResult('a'), 'x', failedResult('b')] } });
    b.post('plan', { body: { outcome: 'succeeded', description: 'd', results: ['x', { id: 'c' }] } });
    expect(finalOutcomeConsistent.judge(b.transcript, context())).toEqual({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 final answers said succeeded with a failed result',
      evidence: [{ note: 'POST /plan said succeeded, but result 0 (a), result 2 (b) failed', exchanges: [2] }],
    });
  });

  it('says how many agreed, or why none was judged', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal('failed') });
    expect(finalOutcomeConsistent.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '1 final answer, each agreeing with its results' });
    const none = new TranscriptBuilder();
    none.post('plan', { body: { outcome: 'succeeded', description: 'd', results: [] } });
    expect(finalOutcomeConsistent.judge(none.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no final answer held a result with outcome succeeded or failed',
    });
  });
});

describe('why answer and read rules were not exercised', () => {
  it('names the missing plan or apply, and the missing answer time', () => {
    const empty = new TranscriptBuilder().transcript;
    expect(answerStatus.judge(empty, context())).toEqual({ outcome: 'not-exercised', message: 'no plan or apply was sent' });
    const refused = new TranscriptBuilder();
    refused.post('plan', { error: { kind: 'refused', message: 'ECONNREFUSED' } });
    expect(answerPrompt.judge(refused.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no plan or apply was answered, so no answer time was measured',
    });
  });

  it('names a missing 202, a missing in_progress answer, and in_progress answers without results', () => {
    const plain = new TranscriptBuilder();
    plain.post('plan', { body: shopDbFinal() });
    const atOnce = 'the one plan or apply call was answered 200 at once: no operation to read';
    expect(operationInProgressResultsEmpty.judge(plain.transcript, context())).toEqual({ outcome: 'not-applicable', message: atOnce });
    expect(operationInProgressDescription.judge(plain.transcript, context())).toEqual({ outcome: 'not-applicable', message: atOnce });
    const never = 'the provisioner never answered 202 with an operationId, so no operation was read';
    expect(operationInProgressResultsEmpty.judge(new TranscriptBuilder().transcript, context())).toEqual({ outcome: 'not-exercised', message: never });
    const done = accepted();
    done.read(OP_ID, { body: shopDbFinal() });
    expect(operationInProgressDescription.judge(done.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no read answered in_progress' });
    const bare = accepted();
    bare.read(OP_ID, { body: { outcome: 'in_progress', description: 'Working.' } });
    expect(operationInProgressResultsEmpty.judge(bare.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no in_progress answer carried a results array (operation.body reports that)',
    });
  });

  it('counts in_progress answers that held results', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const filled = b.read(OP_ID, { at: 20, body: { ...IN_PROGRESS, results: [1, 2] } });
    expect(operationInProgressResultsEmpty.judge(b.transcript, context())).toEqual({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 in_progress answers held results',
      evidence: [{ note: 'read sent 15ms after the 202 said in_progress but held 2 results', exchanges: [filled.seq] }],
    });
  });
});
