import { describe, expect, it } from 'vitest';
import { inputInvalidChangeSet, inputMalformedJson, RULES } from '../../src/rules/catalog/input.js';
import { judgeRules } from '../../src/rules/index.js';
import type { Judgement } from '../../src/rules/types.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['input.malformed-json', 'SHOULD'],
  ['input.invalid-change-set', 'SHOULD'],
]);

const FAILED = { outcome: 'failed', description: 'changes must be a non-empty array', results: [] };
const SUCCEEDED = { outcome: 'succeeded', description: 'Planned nothing.', results: [] };

function brokenNotes(judgement: Judgement): { seqs: number[][]; notes: string[] } {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return { seqs: judgement.evidence.map((e) => e.exchanges), notes: judgement.evidence.map((e) => e.note) };
}

// Each bad body is a case of its own, as the property sends them: its suite names it.
let cases = 0;

function malformed(b: TranscriptBuilder, spec: Parameters<TranscriptBuilder['badInput']>[1]) {
  return b.badInput('plan', { requestBody: '{"changes": [', suite: `property/malformed-json#${++cases}`, ...spec }, 'malformed-json');
}

/** A case that sent its body three times over two seconds, each answered `answer`, while a read of an unknown id was answered 404. */
function insisted(b: TranscriptBuilder, send: (spec: Parameters<TranscriptBuilder['badInput']>[1]) => ReturnType<TranscriptBuilder['badInput']>, answer: Parameters<TranscriptBuilder['badInput']>[1]) {
  const suite = `property/insisted#${++cases}`;
  const sends = [0, 1000, 2000].map((at) => send({ ...answer, at, suite }));
  const other = b.read('0b9e1f7c-2d4a-4c8e-b1f3-7a6d5e4c3b2a', { at: 1000, status: 404, body: { error: 'unknown' }, tag: 'read-unknown', suite });
  return { sends, other };
}

describe('input.malformed-json', () => {
  it('is not exercised when no body that is not JSON was sent', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 500 });
    b.badInput('plan', { status: 500 }, 'invalid-change-set');
    expect(inputMalformedJson.judge(b.transcript, context()).outcome).toBe('not-exercised');
  });

  it('holds when every such body gets a 4xx, a 413 for a huge one included', () => {
    const b = new TranscriptBuilder();
    malformed(b, { status: 400, body: { error: 'not JSON' } });
    malformed(b, { status: 413, body: { error: 'too large' } });
    malformed(b, { status: 422, body: 'Unprocessable', contentType: 'text/plain' });
    expect(inputMalformedJson.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '3 bodies that are not JSON, each answered 4xx' });
  });

  it('is broken by a 2xx, named with the body sent', () => {
    const b = new TranscriptBuilder();
    malformed(b, { status: 400 });
    const ok = malformed(b, { status: 200, body: SUCCEEDED });
    const { seqs, notes } = brokenNotes(inputMalformedJson.judge(b.transcript, context()));
    expect(seqs).toEqual([[ok.seq]]);
    expect(notes).toEqual(['POST /plan with "{\\"changes\\": [" answered 200, not a 4xx']);
  });

  it('takes a 5xx or a hang for no answer: the body sent again decides', () => {
    const b = new TranscriptBuilder();
    malformed(b, { at: 0, status: 503, suite: 'property/malformed-json#again' });
    malformed(b, { at: 1000, status: 400, suite: 'property/malformed-json#again' });
    malformed(b, { error: { kind: 'timeout', message: 'no answer' }, took: 30_000 });
    malformed(b, { status: 400 });
    expect(inputMalformedJson.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 bodies that are not JSON, each answered 4xx; 2 more sends failed transiently and say nothing',
    });
  });

  it('is broken by a body that gets only 5xx or no answer over two poll intervals while other calls are answered', () => {
    const b = new TranscriptBuilder();
    const crash = insisted(b, (spec) => malformed(b, { ...spec, requestBody: '['.repeat(10_000) }), { status: 500, body: { error: 'SyntaxError' } });
    const judgement = inputMalformedJson.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', message: '1 body got nothing but 5xx or no answer while other calls were answered' });
    const { seqs, notes } = brokenNotes(judgement);
    expect(seqs).toEqual([[...crash.sends.map((send) => send.seq), crash.other.seq]]);
    expect(notes[0]).toMatch(/^POST \/plan with "\[{60}…" \(10000 characters\) answered 500 \(3 sends over 2\.0s\), while 1 other call made meanwhile answered 404$/);
  });

  it('counts two bodies that got nothing but 5xx in the plural, after the answered ones that were wrong', () => {
    const b = new TranscriptBuilder();
    insisted(b, (spec) => malformed(b, spec), { status: 500, body: { error: 'SyntaxError' } });
    insisted(b, (spec) => malformed(b, { ...spec, requestBody: '[' }), { status: 503, body: { error: 'busy' } });
    malformed(b, { status: 200, body: SUCCEEDED });
    expect(inputMalformedJson.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      count: 3,
      message: '1 of 1 body that is not JSON did not get a 4xx answer; 2 bodies got nothing but 5xx or no answer while other calls were answered',
    });
  });

  it('is not exercised when every body failed transiently and nothing shows the bodies are to blame', () => {
    const once = new TranscriptBuilder();
    malformed(once, { status: 502 });
    expect(inputMalformedJson.judge(once.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'every POST with a body that is not JSON failed transiently, and no body was sent 3 times over two poll intervals, so the failures may have been passing',
    });
    const down = new TranscriptBuilder();
    for (const at of [0, 1000, 2000]) malformed(down, { at, status: 503, suite: 'property/malformed-json#down' });
    down.read(OP_ID, { at: 1000, status: 503, body: '' });
    expect(inputMalformedJson.judge(down.transcript, context())).toMatchObject({
      outcome: 'not-exercised',
      message: /failed transiently, and so did every other call made meanwhile: the provisioner looked down/,
    });
  });
});

describe('input.invalid-change-set', () => {
  const invalid = (b: TranscriptBuilder, spec: Parameters<TranscriptBuilder['badInput']>[1]) =>
    b.badInput('plan', { requestBody: '{"changes": []}', suite: `property/invalid-change-set#${++cases}`, ...spec }, 'invalid-change-set');

  it('is not exercised when no invalid change set was sent, or when every one was still running as the run stopped', () => {
    const none = new TranscriptBuilder();
    malformed(none, { status: 500 });
    expect(inputInvalidChangeSet.judge(none.transcript, context()).outcome).toBe('not-exercised');
    const stopped = new TranscriptBuilder();
    const post = invalid(stopped, { status: 202, body: { operationId: OP_ID } });
    stopped.read(OP_ID, { body: IN_PROGRESS });
    stopped.pollEnded(OP_ID, post.seq, 'aborted', 50);
    expect(inputInvalidChangeSet.judge(stopped.transcript, context()).outcome).toBe('not-exercised');
  });

  it('holds for a 4xx, a 200 failed answer, and a 202 whose operation ends failed', () => {
    const b = new TranscriptBuilder();
    invalid(b, { status: 400, body: { error: 'changes must be a non-empty array' } });
    invalid(b, { status: 200, body: FAILED });
    const post = invalid(b, { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { body: IN_PROGRESS });
    b.read(OP_ID, { body: FAILED });
    b.pollEnded(OP_ID, post.seq, 'final', 40);
    expect(inputInvalidChangeSet.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '3 invalid change sets, each refused with a 4xx or a failed final answer',
    });
  });

  it('is broken by a 200 that succeeds, and 202s that lead nowhere or to success', () => {
    const b = new TranscriptBuilder();
    const planned = invalid(b, { status: 200, body: SUCCEEDED });
    const noId = invalid(b, { status: 202, body: { id: OP_ID } });
    const lostId = '0b9e1f7c-2d4a-4c8e-b1f3-7a6d5e4c3b2a';
    const lost = invalid(b, { status: 202, body: { operationId: lostId } });
    const lostRead = b.read(lostId, { status: 404, body: { error: 'unknown' } });
    b.pollEnded(lostId, lost.seq, 'lost', 80);
    const taken = invalid(b, { status: 202, body: { operationId: OP_ID } });
    const takenFinal = b.read(OP_ID, { body: SUCCEEDED });
    b.pollEnded(OP_ID, taken.seq, 'final', 100);
    const { seqs, notes } = brokenNotes(inputInvalidChangeSet.judge(b.transcript, context()));
    expect(seqs).toEqual([[planned.seq], [noId.seq], [lostRead.seq, lost.seq], [takenFinal.seq, taken.seq]]);
    expect(notes).toEqual([
      'POST /plan with "{\\"changes\\": []}" answered 200 with outcome "succeeded", not a failed final answer',
      'POST /plan with "{\\"changes\\": []}" answered 202 without an operationId: the work leads nowhere',
      'POST /plan with "{\\"changes\\": []}" answered 202, then a read answered 404 before any final answer: the work leads nowhere',
      'POST /plan with "{\\"changes\\": []}" was accepted and its work ended succeeded: an invalid change set was taken for a valid one',
    ]);
  });

  it('is not exercised when every invalid change set failed transiently, saying why that tells nothing', () => {
    const b = new TranscriptBuilder();
    invalid(b, { status: 502 });
    expect(inputInvalidChangeSet.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'every POST with an invalid change set failed transiently, and no body was sent 3 times over two poll intervals, so the failures may have been passing',
    });
  });

  it('is broken by a body that gets only 5xx or a reset over two poll intervals while other calls are answered, and not by one 5xx', () => {
    const b = new TranscriptBuilder();
    invalid(b, { status: 500, body: { error: 'TypeError' } });
    const crash = insisted(b, (spec) => invalid(b, spec), { error: { kind: 'reset', message: 'socket hang up' } });
    invalid(b, { status: 400 });
    const judgement = inputInvalidChangeSet.judge(b.transcript, context());
    expect(judgement).toMatchObject({ outcome: 'broken', message: '1 body got nothing but 5xx or no answer while other calls were answered' });
    expect(brokenNotes(judgement)).toEqual({
      seqs: [[...crash.sends.map((send) => send.seq), crash.other.seq]],
      notes: ['POST /plan with "{\\"changes\\": []}" failed transiently (3 sends over 2.0s: 3×reset), while 1 other call made meanwhile answered 404'],
    });
  });

  it('is broken by a 202 whose operation meets the deadline, and the operation rules leave such reads alone', () => {
    const b = new TranscriptBuilder();
    const post = invalid(b, { status: 202, body: { operationId: OP_ID } });
    const read = b.read(OP_ID, { at: 1_000, body: IN_PROGRESS });
    b.pollEnded(OP_ID, post.seq, 'deadline', 2_000);
    const twoSeconds = context({ maxOperationDuration: { ms: 2_000, text: 'PT2S', source: 'flag' } });
    const { seqs, notes } = brokenNotes(inputInvalidChangeSet.judge(b.transcript, twoSeconds));
    expect(seqs).toEqual([[read.seq, post.seq]]);
    expect(notes[0]).toMatch(/no final answer came before the deadline/);
    const deadline = judgeRules(b.transcript, twoSeconds).find((r) => r.id === 'operation.within-max-duration')!;
    expect(deadline.status).toBe('not-exercised');
  });

  it('does not blame a deadline that the reads of the 202 never came near', () => {
    const b = new TranscriptBuilder();
    const post = invalid(b, { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 10, body: IN_PROGRESS });
    b.pollEnded(OP_ID, post.seq, 'deadline', 60_000);
    const oneMinute = context({ maxOperationDuration: { ms: 60_000, text: 'PT1M', source: 'flag' } });
    expect(inputInvalidChangeSet.judge(b.transcript, oneMinute).outcome).not.toBe('broken');
  });

  it('is judged as a SHOULD rule: a warning, or a failure under --strict', () => {
    const b = new TranscriptBuilder();
    insisted(b, (spec) => invalid(b, spec), { status: 503 });
    const rule = (strict: boolean) => judgeRules(b.transcript, context(), { strict }).find((r) => r.id === 'input.invalid-change-set')!;
    expect(rule(false).status).toBe('warn');
    expect(rule(true).status).toBe('fail');
  });
});
