import { describe, expect, it } from 'vitest';
import { finalBody, finalOutcomeConsistent, finalResultShape, finalResultsMatchChanges, RULES } from '../../src/rules/catalog/final.js';
import type { Judgement } from '../../src/rules/types.js';
import { IN_PROGRESS, OP_ID, SHOP_DB, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['final.body', 'MUST'],
  ['final.results-match-changes', 'MUST'],
  ['final.result-shape', 'MUST'],
  ['final.outcome-consistent', 'SHOULD'],
]);

function brokenParts(judgement: Judgement): { seqs: number[][]; notes: string[]; count?: number } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { seqs: judgement.evidence.map((e) => e.exchanges), notes: judgement.evidence.map((e) => e.note), count: judgement.count };
}

const RESULT = { id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'Created shop-db.' };

function withResults(outcome: 'succeeded' | 'failed', results: unknown[]): Record<string, unknown> {
  return { outcome, description: 'Done.', results };
}

describe('final.body', () => {
  it('holds for 200 answers with outcome, description and results', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('apply', { body: shopDbFinal('failed') });
    expect(finalBody.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 answers with status 200 to plan and apply, each with a final outcome, a description and results',
    });
  });

  it('names in_progress on a 200 answer to a POST', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { body: IN_PROGRESS });
    const { seqs, notes } = brokenParts(finalBody.judge(b.transcript, context()));
    expect(seqs).toEqual([[1]]);
    expect(notes[0]).toContain('a 200 answer to plan or apply said in_progress');
  });

  it('is broken by a missing outcome, a non-string description and a results object', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: { description: 3, results: {} } });
    const { notes } = brokenParts(finalBody.judge(b.transcript, context()));
    expect(notes[0]).toBe(
      'POST /plan answered 200: outcome is missing; description is a number, not a string; results is an object, not an array',
    );
  });

  it('counts the 200 answers that lack the final answer shape among those judged', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('apply', { body: IN_PROGRESS });
    expect(finalBody.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      count: 1,
      message: '1 of 2 answers with status 200 to plan and apply lack the final answer shape',
    });
  });

  it('does not judge reads, nor bodies that are not JSON objects', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { body: { outcome: 'done' } });
    expect(finalBody.judge(b.transcript, context())).toEqual({ outcome: 'not-applicable', message: 'the one plan or apply call was answered 202: no 200 answer to judge' });
    b.post('plan', { body: 'ok', contentType: 'text/plain' });
    expect(finalBody.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no 200 answer to plan or apply had a JSON object body (answer.json reports those)',
    });
  });
});

describe('final.results-match-changes', () => {
  it('holds for one result per change, on a POST and on a final read', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { body: IN_PROGRESS });
    b.read(OP_ID, { body: shopDbFinal() });
    expect(finalResultsMatchChanges.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 final answers, each with one result per change',
    });
  });

  it('is broken by a doubled result', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: withResults('succeeded', [RESULT, RESULT]) });
    const { seqs, notes } = brokenParts(finalResultsMatchChanges.judge(b.transcript, context()));
    expect(seqs).toEqual([[1]]);
    expect(notes[0]).toBe('POST /plan (seq 1, succeeded) for change set shop-db: "shop-db" in "test" has 2 results');
  });

  it('is broken by a failed answer with a missing result', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { body: withResults('failed', []) });
    const { seqs, notes } = brokenParts(finalResultsMatchChanges.judge(b.transcript, context()));
    expect(seqs).toEqual([[2]]);
    expect(notes[0]).toMatch(/\(seq 2, failed\) for change set shop-db: no result for "shop-db" in "test"$/);
  });

  it('reports extra pairs and results without a string id', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: withResults('succeeded', [RESULT, { ...RESULT, environment: 'prod' }, { environment: 'test' }]) });
    const { notes } = brokenParts(finalResultsMatchChanges.judge(b.transcript, context()));
    expect(notes[0]).toContain('result 2 has no string id and environment to match');
    expect(notes[0]).toContain('extra result "shop-db" in "prod", not a change of the set');
  });

  it('skips answers whose changes are unknown, and says why', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal(), changeSet: 'custom' });
    const unreadable = context({ changeSets: [{ name: 'custom', changesError: 'nothing at /changes' }] });
    expect(finalResultsMatchChanges.judge(b.transcript, unreadable)).toEqual({
      outcome: 'not-exercised',
      message: 'no final answer could be matched to its changes: the changes of custom could not be read: nothing at /changes',
    });
    b.post('plan', { body: withResults('succeeded', []) });
    const both = context({ changeSets: [SHOP_DB, { name: 'custom', changesError: 'nothing at /changes' }] });
    const j = finalResultsMatchChanges.judge(b.transcript, both);
    expect(brokenParts(j).seqs).toEqual([[2]]);
    expect(j.message).toContain('skipped where the changes of custom could not be read');
  });

  it('is not exercised without a final answer', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { body: IN_PROGRESS });
    expect(finalResultsMatchChanges.judge(b.transcript, context()).outcome).toBe('not-exercised');
  });
});

describe('final.result-shape', () => {
  it('holds for results with the contract shape, outputs optional', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('plan', { body: withResults('succeeded', [RESULT]) });
    expect(finalResultShape.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 results in 2 final answers, all with the contract shape',
    });
  });

  it('names the field of the result that is off, by index and id', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, {
      body: withResults('failed', [RESULT, { ...RESULT, id: 'shop-cache', outputs: ['x'] }, { ...RESULT, outcome: 'in_progress', description: null }, 'oops']),
    });
    const judgement = finalResultShape.judge(b.transcript, context());
    expect(judgement.message).toBe('3 of 4 results in 1 final answer are off the contract shape');
    const { seqs, notes, count } = brokenParts(judgement);
    expect(seqs).toEqual([[2]]);
    expect(count).toBe(3);
    expect(notes[0]).toBe(
      `GET /operations/${OP_ID} (seq 2, failed): result 1 (shop-cache): outputs is an array, not an object; ` +
        'result 2 (shop-db): outcome "in_progress" is not succeeded or failed, description is null, not a string; ' +
        'result 3: is a string, not an object',
    );
  });

  it('rejects null outputs and a missing id', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: withResults('succeeded', [{ environment: 'test', outcome: 'succeeded', description: '', outputs: null }]) });
    const { notes } = brokenParts(finalResultShape.judge(b.transcript, context()));
    expect(notes[0]).toBe('POST /plan (seq 1, succeeded): result 0: id is missing, outputs is null, not an object');
  });

  it('is not exercised without results to check', () => {
    const b = new TranscriptBuilder();
    expect(finalResultShape.judge(b.transcript, context()).outcome).toBe('not-exercised');
    b.post('plan', { body: withResults('failed', []) });
    expect(finalResultShape.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: '1 final answer held no results to check' });
  });
});

describe('final.outcome-consistent', () => {
  it('holds when outcomes agree, and allows failed overall with only succeeded results', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('apply', { body: withResults('failed', [RESULT]) });
    expect(finalOutcomeConsistent.judge(b.transcript, context()).outcome).toBe('held');
  });

  it('is broken by succeeded overall with a failed result', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { body: withResults('succeeded', [{ ...RESULT, outcome: 'failed' }]) });
    const { seqs, notes } = brokenParts(finalOutcomeConsistent.judge(b.transcript, context()));
    expect(seqs).toEqual([[2]]);
    expect(notes[0]).toBe(`GET /operations/${OP_ID} said succeeded, but result 0 (shop-db) failed`);
  });

  it('is not exercised without a result that has an outcome', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { body: withResults('succeeded', [{ id: 'shop-db' }]) });
    expect(finalOutcomeConsistent.judge(b.transcript, context()).outcome).toBe('not-exercised');
  });
});
