import { describe, expect, it } from 'vitest';
import { broken, evidence, held, requestLabel } from '../../src/rules/support/judgement.js';
import { describeType, fieldNote } from '../../src/shapes/words.js';
import { allReads, answered, answerLabel, firstFinalRead, noOperationRead, printableId, readSinceFinal } from '../../src/rules/support/operation-reads.js';
import { whatNeverChosenLacks } from '../../src/rules/support/answer-ways.js';
import { finalDifferences, finalState } from '../../src/rules/support/final-equality.js';
import { answeredText, transientSummary } from '../../src/rules/support/unanswered-ids.js';
import type { TransportErrorKind } from '../../src/transcript/exchange.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { operations } from '../../src/transcript/views.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder, shopDbFinal } from '../support/transcript-builder.js';

/** The helpers every judge writes its notes with, at their edges: each kind of failure, ids at the length where they are cut. */

describe('how notes name what came back', () => {
  const b = new TranscriptBuilder();
  const failed = (kind: TransportErrorKind, took = 5) => b.read(OP_ID, { took, error: { kind, message: `${kind} happened` } });

  it('names every kind of transport failure', () => {
    expect(answered(failed('timeout', 10_000))).toBe('timed out after 10.0s');
    expect(answered(failed('refused'))).toBe('had its connection refused');
    expect(answered(failed('reset'))).toBe('had its connection reset');
    expect(answered(failed('dns'))).toBe('failed: the host name did not resolve');
    expect(answered(failed('stopped'))).toBe('failed: stopped happened');
    expect(answered(failed('other'))).toBe('failed: other happened');
    expect(answered(b.read(OP_ID, { status: 503, body: '' }))).toBe('answered 503');
  });

  it('says an exchange with neither response nor error answered nothing', () => {
    const { response: _response, ...bare } = b.read(OP_ID, { status: 200, body: {} });
    expect(answered({ ...bare })).toBe('answered nothing');
  });

  it('prints an id whole up to 60 characters quoted, and cuts a longer one naming its length', () => {
    expect(printableId(undefined)).toBe('(none)');
    expect(printableId('a'.repeat(58))).toBe(`"${'a'.repeat(58)}"`);
    expect(printableId('a'.repeat(59))).toBe(`"${'a'.repeat(49)}…" (59 characters)`);
    expect(printableId('a"b')).toBe('"a\\"b"');
  });

  it('names a request by method and path, or by the URL as sent when it is no URL', () => {
    const read = b.read('x/y', { status: 404, body: {} });
    expect(requestLabel(read)).toBe('GET /operations/x%2Fy');
    expect(requestLabel({ ...read, request: { ...read.request, url: 'not a url' } })).toBe('GET not a url');
  });

  it('describes every kind of JSON value, and a field that is missing or of another type', () => {
    expect([undefined, null, [], {}, 'x', 1, true].map(describeType)).toEqual(['missing', 'null', 'an array', 'an object', 'a string', 'a number', 'a boolean']);
    expect(fieldNote('id', undefined, 'a string')).toBe('id is missing');
    expect(fieldNote('id', null, 'a string')).toBe('id is null, not a string');
  });
});

describe('judgements', () => {
  const e = new TranscriptBuilder().post('plan', { status: 200, body: {} });

  it('keep evidence on a held judgement only when there is some', () => {
    expect(held('fine', [])).toEqual({ outcome: 'held', message: 'fine' });
    expect(held('fine', [evidence('shown', e)])).toEqual({ outcome: 'held', message: 'fine', evidence: [{ note: 'shown', exchanges: [e.seq] }] });
  });

  it('count the evidence of a broken judgement unless told the count', () => {
    const two = [evidence('a', e), evidence('b', e, e)];
    expect(broken('bad', two)).toEqual({ outcome: 'broken', message: 'bad', evidence: two, count: 2 });
    expect(broken('bad', two, 7)).toMatchObject({ count: 7 });
    expect(broken('bad', two, 0)).toMatchObject({ count: 0 });
    expect(two[1]!.exchanges).toEqual([e.seq, e.seq]);
  });
});

describe('reads of operations', () => {
  it('lists every GET of an operation id, probes of unknown and malformed ids included, and no POST', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    b.badInput('plan', { status: 400, body: {} });
    const reads = [
      b.read(OP_ID, { body: IN_PROGRESS }),
      b.read(OP_ID, { body: IN_PROGRESS, tag: 'read-concurrent' }),
      b.read(OP_ID, { body: shopDbFinal(), tag: 'read-after-final' }),
      b.read('x', { status: 404, body: {}, tag: 'read-unknown' }),
      b.read('y', { status: 400, body: {}, tag: 'read-malformed' }),
    ];
    expect(allReads(b.transcript)).toEqual(reads);
  });

  it('says why no operation could be judged', () => {
    expect(noOperationRead(new Transcript())).toEqual({ outcome: 'not-exercised', message: 'the provisioner never answered 202 with an operationId, so no operation was read' });
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID } });
    expect(noOperationRead(b.transcript)).toEqual({ outcome: 'not-exercised', message: '1 operation was accepted but never read' });
    b.read(OP_ID, { body: IN_PROGRESS });
    expect(noOperationRead(b.transcript)).toBeUndefined();
  });

  it('takes the final read whose answer arrived first, and dates reads from it', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    const early = b.read(OP_ID, { at: 900, took: 5, body: IN_PROGRESS });
    b.read(OP_ID, { at: 1000, took: 300, body: shopDbFinal() });
    const first = b.read(OP_ID, { at: 1010, took: 10, body: shopDbFinal(), tag: 'read-concurrent' });
    const op = operations(b.transcript)[0]!;
    expect(firstFinalRead(op)).toBe(first);
    expect(readSinceFinal(op, early)).toBe('read sent 120ms before the first final answer arrived');
    const running = new TranscriptBuilder();
    running.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    const only = running.read(OP_ID, { at: 10, body: IN_PROGRESS });
    const pending = operations(running.transcript)[0]!;
    expect(firstFinalRead(pending)).toBeUndefined();
    expect(readSinceFinal(pending, only)).toBe('read sent 0ms after the first final answer arrived');
  });
});

describe('the words for what reads got', () => {
  const UNKNOWN = '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d';

  it('says one status once, and breaks down a mix of statuses and failures', () => {
    const b = new TranscriptBuilder();
    const five = b.read(UNKNOWN, { at: 0, status: 500, body: {} });
    const fiveAgain = b.read(UNKNOWN, { at: 1000, status: 500, body: {} });
    const timedOut = b.read(UNKNOWN, { at: 2000, took: 10, error: { kind: 'timeout', message: 'no answer' } });
    const refused = b.read(UNKNOWN, { at: 3000, error: { kind: 'refused', message: 'connect ECONNREFUSED' } });
    expect(transientSummary([five, fiveAgain])).toBe('answered 500 (2 reads over 1.0s)');
    expect(transientSummary([five, timedOut], 'send')).toBe('failed transiently (2 sends over 2.0s: 1×500, 1×timeout)');
    expect(transientSummary([timedOut, refused])).toBe('failed transiently (2 reads over 1.0s: 1×timeout, 1×refused)');
    expect(transientSummary([refused])).toBe('failed transiently (1 read over 5ms: 1×refused)');
  });

  it('says what known reads were answered, one status or a breakdown', () => {
    const b = new TranscriptBuilder();
    const ok = b.read(OP_ID, { body: IN_PROGRESS });
    const okAgain = b.read(OP_ID, { body: IN_PROGRESS });
    const lost = b.read(OP_ID, { status: 404, body: {} });
    expect(answeredText([ok, okAgain])).toBe('answered 200');
    expect(answeredText([ok, lost, okAgain])).toBe('were answered (2×200, 1×404)');
  });

  it('labels an exchange that holds neither an answer nor an error as having no answer', () => {
    const b = new TranscriptBuilder();
    const read = b.read(OP_ID, { body: IN_PROGRESS });
    const { response: _response, ...unanswered } = read;
    expect(answerLabel(unanswered)).toBe('no answer');
    expect(answerLabel(read)).toBe('200');
  });

  it('takes from a not-applicable reason what is missing: the part after the calls it counted', () => {
    expect(whatNeverChosenLacks('the one plan or apply call was answered 200 at once: no operation to read')).toBe('no operation to read');
    expect(whatNeverChosenLacks('no operation to read')).toBe('no operation to read');
    expect(whatNeverChosenLacks(': no operation to read')).toBe('no operation to read');
  });
});

describe('the end state of a final answer', () => {
  const final = (results: unknown[]) => finalState(new TranscriptBuilder().read(OP_ID, { body: { outcome: 'succeeded', results } }));

  it('names a result by its id and environment, printing either as JSON when it is not a string', () => {
    const state = final([{ id: { name: 'shop-db' }, environment: 7, outcome: 'succeeded' }]);
    expect([...state.results.values()].map((r) => r.label)).toEqual(['{"name":"shop-db"} in 7']);
  });

  it('keeps a doubled result apart, so that results doubled under other names differ', () => {
    const twice = (id: string) => [
      { id, environment: 'test', outcome: 'succeeded' },
      { id, environment: 'test', outcome: 'succeeded' },
    ];
    expect(finalDifferences(final(twice('shop-db')), final(twice('shop-cache')))).toEqual([
      'result shop-db in test disappeared',
      'result shop-db in test (again) disappeared',
      'result shop-cache in test appeared',
      'result shop-cache in test (again) appeared',
    ]);
  });
});
