import { describe, expect, it } from 'vitest';
import { inputInvalidChangeSet, inputMalformedJson } from '../../src/rules/catalog/input.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, context } from '../support/transcript-builder.js';
import { evidenceOf } from './operation-fixtures.js';

/** The bad-input rules at their edges: status limits, bodies at the length where notes cut them, two operations, another operation's poll-ended event. */

const OTHER_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const FAILED = { outcome: 'failed', description: 'changes must be a non-empty array', results: [] };
const SUCCEEDED = { outcome: 'succeeded', description: 'Planned nothing.', results: [] };

// Each bad body is a case of its own, as the property sends them: its suite names it.
let cases = 0;

function malformed(b: TranscriptBuilder, spec: Parameters<TranscriptBuilder['badInput']>[1], kind: 'plan' | 'apply' = 'plan') {
  return b.badInput(kind, { requestBody: '{', suite: `property/malformed-json#${++cases}`, ...spec }, 'malformed-json');
}

function invalid(b: TranscriptBuilder, spec: Parameters<TranscriptBuilder['badInput']>[1]) {
  return b.badInput('plan', { requestBody: '{}', suite: `property/invalid-change-set#${++cases}`, ...spec }, 'invalid-change-set');
}

/** Sends of one body by one case at 0, 1 and 2 s, each answered `answer`, and a read answered meanwhile. */
function insistedMalformed(b: TranscriptBuilder, answer: Parameters<TranscriptBuilder['badInput']>[1]) {
  const suite = `property/malformed-json#${++cases}`;
  const sends = [0, 1000, 2000].map((at) => malformed(b, { ...answer, at, suite }));
  b.read(OP_ID, { at: 1000, status: 404, body: {}, tag: 'read-unknown', suite });
  return sends;
}

describe('input.malformed-json at its edges', () => {
  it('says why it was not exercised', () => {
    const b = new TranscriptBuilder();
    invalid(b, { status: 500 });
    expect(inputMalformedJson.judge(b.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'no POST with a body that is not JSON was sent' });
    expect(inputInvalidChangeSet.judge(new TranscriptBuilder().transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'no POST with a JSON body that is not a change set was sent',
    });
  });

  it('prints a POST sent without a body as an empty body', () => {
    const b = new TranscriptBuilder();
    const post = malformed(b, { status: 200, body: SUCCEEDED });
    const transcript = new Transcript([{ ...post, request: { ...post.request, body: undefined } }]);
    expect(inputMalformedJson.judge(transcript, context())).toMatchObject({ evidence: [{ note: 'POST /plan with "" answered 200, not a 4xx' }] });
  });

  it('takes 400 to 499 as a client error, and neither a 3xx nor a 500', () => {
    const b = new TranscriptBuilder();
    const crash = insistedMalformed(b, { status: 500 });
    malformed(b, { at: 3000, status: 400 });
    malformed(b, { at: 3100, status: 499 });
    const redirect = malformed(b, { at: 3200, status: 399 }, 'apply');
    const judgement = inputMalformedJson.judge(b.transcript, context());
    expect(judgement).toMatchObject({
      outcome: 'broken',
      count: 2,
      message: '1 of 3 bodies that are not JSON did not get a 4xx answer; 1 body got nothing but 5xx or no answer while other calls were answered',
    });
    expect(evidenceOf(judgement)).toEqual([
      { note: 'POST /apply with "{" answered 399, not a 4xx', exchanges: [redirect.seq] },
      { note: 'POST /plan with "{" answered 500 (3 sends over 2.0s), while 1 other call made meanwhile answered 404', exchanges: [...crash.map((send) => send.seq), crash[2]!.seq + 1] },
    ]);
  });

  it('shows a body of 60 characters whole, and cuts a longer one, counting characters rather than bytes', () => {
    const b = new TranscriptBuilder();
    malformed(b, { status: 200, body: SUCCEEDED, requestBody: 'é'.repeat(60) });
    malformed(b, { status: 200, body: SUCCEEDED, requestBody: `${'😀'.repeat(60)}x` });
    expect(evidenceOf(inputMalformedJson.judge(b.transcript, context())).map((e) => e.note)).toEqual([
      `POST /plan with "${'é'.repeat(60)}" answered 200, not a 4xx`,
      `POST /plan with "${'😀'.repeat(60)}…" (61 characters) answered 200, not a 4xx`,
    ]);
  });

  it('names a transport failure other than a timeout by its kind and message', () => {
    const b = new TranscriptBuilder();
    insistedMalformed(b, { error: { kind: 'refused', message: 'ECONNREFUSED' } });
    expect(inputMalformedJson.judge(b.transcript, context())).toMatchObject({
      message: '1 body got nothing but 5xx or no answer while other calls were answered',
      evidence: [{ note: 'POST /plan with "{" failed transiently (3 sends over 2.0s: 3×refused), while 1 other call made meanwhile answered 404' }],
    });
  });

  it('holds for a single body with a 4xx, in the singular', () => {
    const b = new TranscriptBuilder();
    malformed(b, { status: 400 });
    expect(inputMalformedJson.judge(b.transcript, context())).toEqual({ outcome: 'held', message: '1 body that is not JSON, each answered 4xx' });
  });
});

describe('input.invalid-change-set at its edges', () => {
  it('takes a 200 only when it says failed', () => {
    const b = new TranscriptBuilder();
    invalid(b, { status: 200, body: FAILED });
    const progress = invalid(b, { status: 200, body: IN_PROGRESS });
    const bare = invalid(b, { status: 200, body: {} });
    const created = invalid(b, { status: 201, body: FAILED });
    const judgement = inputInvalidChangeSet.judge(b.transcript, context());
    expect(judgement).toMatchObject({ count: 3, message: '3 of 4 invalid change sets were not refused with a 4xx or a failed final answer' });
    expect(evidenceOf(judgement)).toEqual([
      { note: 'POST /plan with "{}" answered 200 with outcome "in_progress", not a failed final answer', exchanges: [progress.seq] },
      { note: 'POST /plan with "{}" answered 200 with outcome null, not a failed final answer', exchanges: [bare.seq] },
      { note: 'POST /plan with "{}" answered 201', exchanges: [created.seq] },
    ]);
  });

  it('counts only the change sets it could judge, refused ones among them', () => {
    const b = new TranscriptBuilder();
    invalid(b, { status: 400, body: {} });
    invalid(b, { status: 200, body: FAILED });
    const running = invalid(b, { status: 202, body: { operationId: OP_ID } });
    b.pollEnded(OP_ID, running.seq, 'aborted', 300);
    expect(inputInvalidChangeSet.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '2 invalid change sets, each refused with a 4xx or a failed final answer',
    });
    const accepted = invalid(b, { status: 202, body: { operationId: OTHER_ID } });
    b.read(OTHER_ID, { body: FAILED });
    b.pollEnded(OTHER_ID, accepted.seq, 'final', 400);
    invalid(b, { status: 200, body: SUCCEEDED });
    invalid(b, { status: 503 });
    expect(inputInvalidChangeSet.judge(b.transcript, context())).toMatchObject({
      outcome: 'broken',
      count: 1,
      message: '1 of 4 invalid change sets were not refused with a 4xx or a failed final answer',
    });
  });

  it('takes a 202 with an empty operationId as one without', () => {
    const b = new TranscriptBuilder();
    const empty = invalid(b, { status: 202, body: { operationId: '' } });
    expect(evidenceOf(inputInvalidChangeSet.judge(b.transcript, context()))).toEqual([
      { note: 'POST /plan with "{}" answered 202 without an operationId: the work leads nowhere', exchanges: [empty.seq] },
    ]);
  });

  it("follows each accepted change set by its own reads and its own poll-ended event, not another operation's", () => {
    const b = new TranscriptBuilder();
    const refused = invalid(b, { status: 202, body: { operationId: OP_ID } });
    const running = invalid(b, { status: 202, body: { operationId: OTHER_ID } });
    b.read(OTHER_ID, { body: IN_PROGRESS });
    // OP_ID's reads, sent in the other order than they were recorded: the failed answer came first.
    b.read(OP_ID, { at: 200, body: SUCCEEDED });
    b.read(OP_ID, { at: 100, body: FAILED });
    b.pollEnded(OP_ID, refused.seq, 'lost', 300);
    b.pollEnded(OTHER_ID, running.seq, 'aborted', 300);
    expect(inputInvalidChangeSet.judge(b.transcript, context())).toEqual({
      outcome: 'held',
      message: '1 invalid change set, each refused with a 4xx or a failed final answer',
    });
  });

  it('leaves unjudged an accepted change set without a poll-ended event, or one that ended final without a final read', () => {
    const b = new TranscriptBuilder();
    const first = invalid(b, { status: 202, body: { operationId: OP_ID } });
    invalid(b, { status: 202, body: { operationId: OTHER_ID } });
    b.read(OP_ID, { body: IN_PROGRESS });
    b.pollEnded(OP_ID, first.seq, 'final', 300);
    expect(inputInvalidChangeSet.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'every invalid change set was accepted, and the run stopped before any of them ended',
    });
  });

  it('leaves to operation.body an accepted change set whose read answered a body that is no operation answer', () => {
    const b = new TranscriptBuilder();
    const post = invalid(b, { status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { body: { ...IN_PROGRESS, outcome: 'IN_PROGRESS' } });
    b.pollEnded(OP_ID, post.seq, 'unexpected', 300);
    expect(inputInvalidChangeSet.judge(b.transcript, context())).toEqual({
      outcome: 'not-exercised',
      message: 'every invalid change set was accepted, and the run stopped before any of them ended',
    });
  });

  it('names the 202 alone when the work was lost before any read', () => {
    const b = new TranscriptBuilder();
    const post = invalid(b, { status: 202, body: { operationId: OP_ID } });
    b.pollEnded(OP_ID, post.seq, 'lost', 300);
    expect(evidenceOf(inputInvalidChangeSet.judge(b.transcript, context()))).toEqual([
      { note: 'POST /plan with "{}" answered 202, then a read answered 404 before any final answer: the work leads nowhere', exchanges: [post.seq] },
    ]);
  });

  it('does not blame the deadline of a 202 that was never read: nothing proves the work outlasted it', () => {
    const b = new TranscriptBuilder();
    const post = invalid(b, { status: 202, body: { operationId: OP_ID } });
    b.pollEnded(OP_ID, post.seq, 'deadline', 300);
    expect(evidenceOf(inputInvalidChangeSet.judge(b.transcript, context({ maxOperationDuration: { ms: 300, text: 'PT0.3S', source: 'flag' } })))).toEqual([]);
  });

  it('names the last read sent, whatever order the reads were recorded in', () => {
    const b = new TranscriptBuilder();
    const post = invalid(b, { status: 202, body: { operationId: OP_ID } });
    const last = b.read(OP_ID, { at: 200, body: IN_PROGRESS });
    b.read(OP_ID, { at: 100, body: IN_PROGRESS });
    b.read(OP_ID, { at: 150, body: IN_PROGRESS, tag: 'read-unknown' });
    b.pollEnded(OP_ID, post.seq, 'lost', 300);
    expect(evidenceOf(inputInvalidChangeSet.judge(b.transcript, context())).map((e) => e.exchanges)).toEqual([[last.seq, post.seq]]);
  });
});
