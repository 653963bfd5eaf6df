import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProvisionerClient } from '../../src/client/client.js';
import { Poller } from '../../src/poller/poller.js';
import { unexpectedAnswer } from '../../src/poller/unexpected-answer.js';
import { judgeRules } from '../../src/rules/index.js';
import { pollEnds } from '../../src/transcript/views.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { context, IN_PROGRESS, OP_ID, shopDbFinal, TranscriptBuilder } from '../support/transcript-builder.js';

/** One read's answer: a status, a content type and the body text as sent. */
interface Answer {
  status: number;
  body: string;
  contentType?: string;
}

const json = (value: unknown, status = 200): Answer => ({ status, body: JSON.stringify(value) });
const UPPER_IN_PROGRESS = json({ outcome: 'IN_PROGRESS', description: 'Working.', results: [] });
const UPPER_FINAL = json({ ...shopDbFinal(), outcome: 'SUCCEEDED' });

/** A provisioner that accepts every POST and answers the reads of its one operation in turn, the last one for ever after. */
async function provisioner(answers: Answer[]): Promise<{ url: string; reads: () => number }> {
  let reads = 0;
  const server: Server = createServer((request, response) => {
    if (request.method === 'POST') {
      response.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ operationId: OP_ID }));
      return;
    }
    const answer = answers[Math.min(reads++, answers.length - 1)]!;
    response.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' }).end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  open.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reads: () => reads };
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** Accepts one apply and follows it with a short poll interval and a deadline far beyond the test. */
async function follow(answers: Answer[]) {
  const target = await provisioner(answers);
  const transcript = new Transcript();
  const client = new ProvisionerClient({ baseUrl: target.url, transcript });
  open.unshift(() => client.close());
  const poller = new Poller(client, { pollIntervalMs: 5, maxOperationDurationMs: 60_000, answerTimeoutMs: 10_000, concurrentReaders: 0, readAfterFinal: true });
  const accepted = await client.send({ suite: 'test', tag: 'apply', probe: false, method: 'POST', path: '/apply', body: '{"changes":[]}', timeoutMs: 10_000 });
  const conclusion = await poller.follow({ accepted, operationId: OP_ID, kind: 'apply', suite: 'test' });
  await poller.settle();
  return { conclusion, transcript, reads: target.reads() };
}

describe('a 200 read that is no operation answer ends the work, as the control plane ends it', () => {
  it('an upper-case outcome at the first read: no further read, and only operation.body is broken', async () => {
    const { conclusion, transcript, reads } = await follow([UPPER_IN_PROGRESS, json(shopDbFinal())]);
    expect(reads).toBe(1);
    expect(conclusion.reason).toBe('unexpected');
    expect(conclusion.conclusion).toMatch(/^the control plane would fail this work: the provisioner sent an unexpected response \(the read .* after the 202 answered 200, but outcome "IN_PROGRESS" is not in_progress, succeeded or failed\)$/);
    expect(pollEnds(transcript)).toMatchObject([{ operationId: OP_ID, reason: 'unexpected', acceptedSeq: 1, conclusion: conclusion.conclusion }]);
    // The control plane stops here: no probe after it either.
    expect(transcript.exchanges.map((e) => e.tag)).toEqual(['apply', 'poll']);

    const results = judgeRules(transcript, context({ changeSets: [{ name: 'test', changes: [] }] }));
    const status = (id: string): string | undefined => results.find((r) => r.id === id)?.status;
    expect(status('operation.body')).toBe('fail');
    expect(status('operation.within-max-duration')).toBe('not-exercised');
    expect(results.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['operation.body']);
  });

  it('reads past transient answers and in_progress, then ends at the first unusable one, even one that names a final outcome in upper case', async () => {
    const { conclusion, reads } = await follow([json({ error: 'busy' }, 503), json(IN_PROGRESS), UPPER_FINAL, json(shopDbFinal())]);
    expect(reads).toBe(3);
    expect(conclusion.reason).toBe('unexpected');
    expect(conclusion.conclusion).toContain('outcome "SUCCEEDED" is not in_progress, succeeded or failed');
  });

  it('ends on a 200 whose body is not JSON, and on one that misses a field', async () => {
    const page = await follow([{ status: 200, body: '<html><body>OK</body></html>', contentType: 'text/html' }]);
    expect(page.conclusion.reason).toBe('unexpected');
    expect(page.conclusion.conclusion).toContain('but the body is not JSON)');
    const noDescription = await follow([json({ outcome: 'in_progress', results: [] })]);
    expect(noDescription.reads).toBe(1);
    expect(noDescription.conclusion.conclusion).toContain('but description is not a string)');
  });

  it('follows a correct operation to its final answer as before, whatever its content type says', async () => {
    const { conclusion, reads } = await follow([json(IN_PROGRESS), { ...json(shopDbFinal()), contentType: 'text/plain' }]);
    expect(conclusion.reason).toBe('final');
    expect(conclusion.conclusion).toMatch(/^the control plane would record succeeded after /);
    // The final read, then the probes after it.
    expect(reads).toBe(4);
  });
});

describe('unexpectedAnswer', () => {
  const b = new TranscriptBuilder();
  it('says what keeps a 200 read from being an operation answer', () => {
    expect(unexpectedAnswer(b.read(OP_ID, { body: { outcome: 'Succeeded', description: 'Done.', results: [] } }))).toBe(
      'outcome "Succeeded" is not in_progress, succeeded or failed',
    );
    expect(unexpectedAnswer(b.read(OP_ID, { body: { description: 'Done.' } }))).toBe('outcome is missing; results is not an array');
    expect(unexpectedAnswer(b.read(OP_ID, { body: 'done', contentType: 'text/plain' }))).toBe('the body is not JSON');
    expect(unexpectedAnswer(b.read(OP_ID, { body: [IN_PROGRESS] }))).toBe('body is not a JSON object');
  });

  it('leaves alone usable 200 reads, what other rules judge inside them, and every other status', () => {
    expect(unexpectedAnswer(b.read(OP_ID, { body: IN_PROGRESS }))).toBeUndefined();
    expect(unexpectedAnswer(b.read(OP_ID, { body: shopDbFinal('failed') }))).toBeUndefined();
    // Results while in_progress and the shape of each result are other rules' (in-progress-results-empty, final.result-shape).
    expect(unexpectedAnswer(b.read(OP_ID, { body: { ...IN_PROGRESS, results: [{ id: 'shop-db' }] } }))).toBeUndefined();
    expect(unexpectedAnswer(b.read(OP_ID, { body: { ...shopDbFinal(), results: [{ id: 'shop-db', outcome: 'ok' }] } }))).toBeUndefined();
    expect(unexpectedAnswer(b.read(OP_ID, { body: IN_PROGRESS, contentType: 'text/plain' }))).toBeUndefined();
    expect(unexpectedAnswer(b.read(OP_ID, { status: 404, body: 'not found', contentType: 'text/plain' }))).toBeUndefined();
    expect(unexpectedAnswer(b.read(OP_ID, { status: 502, body: '<html></html>', contentType: 'text/html' }))).toBeUndefined();
    expect(unexpectedAnswer(b.read(OP_ID, { error: { kind: 'timeout', message: 'no answer' } }))).toBeUndefined();
  });
});

describe('work the kit stops following', () => {
  /** Follows one apply whose reads stay in progress, stopped through `stop` after its first read. */
  async function stopped(reason?: Error) {
    const target = await provisioner([json(IN_PROGRESS)]);
    const transcript = new Transcript();
    const client = new ProvisionerClient({ baseUrl: target.url, transcript });
    open.unshift(() => client.close());
    const poller = new Poller(client, { pollIntervalMs: 5, maxOperationDurationMs: 60_000, answerTimeoutMs: 10_000, concurrentReaders: 0, readAfterFinal: true });
    const accepted = await client.send({ suite: 'test', tag: 'apply', probe: false, method: 'POST', path: '/apply', body: '{"changes":[]}', timeoutMs: 10_000 });
    const stop = new AbortController();
    const following = poller.follow({ accepted, operationId: OP_ID, kind: 'apply', suite: 'test', stop: stop.signal });
    while (target.reads() === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    stop.abort(reason);
    const conclusion = await following;
    await poller.settle();
    return conclusion;
  }

  it('says why, in the words the suite gave the stop', async () => {
    const conclusion = await stopped(new Error('the case it ran beside as load had ended'));
    expect(conclusion.reason).toBe('aborted');
    expect(conclusion.conclusion).toBe('the kit stopped following this work: the case it ran beside as load had ended');
  });

  it('claims no cause when the stop gave none', async () => {
    const conclusion = await stopped();
    expect(conclusion.conclusion).toBe('the kit stopped following this work before it ended');
  });
});
