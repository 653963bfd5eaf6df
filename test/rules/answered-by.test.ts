import { describe, expect, it } from 'vitest';
import { acceptedBody, acceptedOperationIdUuid } from '../../src/rules/catalog/accepted.js';
import { answerPrompt, answerStatus } from '../../src/rules/catalog/answers.js';
import { finalBody } from '../../src/rules/catalog/final.js';
import { operationTransientErrors } from '../../src/rules/catalog/operation-answers.js';
import { operationWithinMaxDuration } from '../../src/rules/catalog/operation-lifecycle.js';
import { noOperationRead } from '../../src/rules/support/operation-reads.js';
import { neverAnswered, proxyShare, proxyWords, statusAnswered } from '../../src/rules/support/answered-by.js';
import { applyIdempotent } from '../../src/rules/catalog/repeats.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import type { Judgement } from '../../src/rules/types.js';
import { HAPROXY_503_PAGE, HAPROXY_504_PAGE, NGINX_502_PAGE, NGINX_504_PAGE, PROVISIONER_503_BEHIND_NGINX, type ProxyPage } from '../support/proxy-pages.js';
import { context, IN_PROGRESS, OP_ID, shopDbFinal, TranscriptBuilder } from '../support/transcript-builder.js';

// Every sentence that says what a plan, apply or read got says who gave it: the provisioner, or a proxy in its place.

function answer(page: ProxyPage): { status: number; body: string; contentType: string; headers: Record<string, string> } {
  return { status: page.status, body: page.body, contentType: page.contentType, headers: page.headers };
}

function notes(judgement: Judgement): string[] {
  return judgement.outcome === 'broken' ? judgement.evidence.map((e) => e.note) : [];
}

describe('answers to plan and apply', () => {
  it('say the proxy answered when nginx gave up waiting with a 504', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, took: 5000, ...answer(NGINX_504_PAGE) });
    b.post('plan', { at: 6000, took: 2, ...answer(HAPROXY_503_PAGE) });
    b.post('plan', { at: 7000, body: shopDbFinal() });
    const status = answerStatus.judge(b.transcript, context());
    expect(status.message).toBe('2 of 3 plan or apply calls (not the burst\'s calls, repeats, calls refused under load or calls around the restart) did not get 200 or 202; the proxies in front of the provisioner (nginx, HAProxy) answered both (503, 504)');
    expect(notes(status)).toEqual([
      'POST /apply was answered 504 by the proxy in front of the provisioner (nginx) after 5.0s',
      'POST /plan was answered 503 by the proxy in front of the provisioner (HAProxy) after 2ms',
    ]);
    const prompt = answerPrompt.judge(b.transcript, context({ answerTimeoutMs: 2000 }));
    expect(prompt.message).toBe('1 of 3 plan or apply calls (repeats counted; not the burst\'s calls or calls around the restart) were not answered within 2.0s; the slowest took 5.0s (limit 2.0s); the proxy in front of the provisioner (nginx) answered it (504)');
    expect(notes(prompt)).toEqual(['POST /apply was answered 504 by the proxy in front of the provisioner (nginx) after 5.0s (limit 2.0s): the provisioner had not answered by then']);
  });

  it("say the provisioner answered its own JSON 503, even behind nginx", () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, ...answer(PROVISIONER_503_BEHIND_NGINX) });
    b.post('plan', { at: 10, took: 3000, body: shopDbFinal(), headers: { server: 'nginx/1.24.0' } });
    const status = answerStatus.judge(b.transcript, context());
    expect(status.message).toBe('1 of 2 plan or apply calls (not the burst\'s calls, repeats, calls refused under load or calls around the restart) did not get 200 or 202');
    expect(notes(status)).toEqual(['POST /apply answered 503']);
    expect(notes(answerPrompt.judge(b.transcript, context({ answerTimeoutMs: 2000 })))).toEqual(['POST /plan answered after 3.0s (limit 2.0s)']);
  });

  it('say who answered in place of a 202 when no plan or apply was accepted', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, took: 5000, ...answer(NGINX_504_PAGE) });
    b.post('plan', { at: 6000, took: 5000, ...answer(NGINX_504_PAGE) });
    const byProxy = 'no plan or apply was answered 202: the proxy in front of the provisioner (nginx) answered both (504)';
    expect(acceptedBody.judge(b.transcript, context()).message).toBe(byProxy);
    expect(acceptedOperationIdUuid.judge(b.transcript, context()).message).toBe(`${byProxy}, so no operationId was checked`);
    expect(noOperationRead(b.transcript)).toEqual({ outcome: 'not-exercised', message: `${byProxy}, so no operation was read` });
    expect(operationWithinMaxDuration.judge(b.transcript, context()).message).toBe(`${byProxy}, so no operation was timed`);
    expect(finalBody.judge(b.transcript, context()).message).toBe('no plan or apply was answered 200: the proxy in front of the provisioner (nginx) answered both (504)');
  });

  it('say the proxy answered an apply that therefore has no end to compare with its repeat', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { at: 0, took: 1000, ...answer(HAPROXY_504_PAGE) });
    b.post('apply', { at: 1500, took: 1000, suite: SITUATION_SUITES.repeatApply, repeatOf: first.seq, ...answer(HAPROXY_504_PAGE) });
    expect(applyIdempotent.judge(b.transcript, context()).message).toBe(
      'no apply was sent again after the first had ended: the first apply of shop-db was answered 504 by the proxy in front of the provisioner (HAProxy) after 1.0s',
    );
  });

  it('say the proxy answered a repeated apply whose first one ended', () => {
    const b = new TranscriptBuilder();
    const first = b.post('apply', { at: 0, body: shopDbFinal() });
    b.post('apply', { at: 100, took: 5000, suite: SITUATION_SUITES.repeatApply, repeatOf: first.seq, ...answer(NGINX_504_PAGE) });
    expect(notes(applyIdempotent.judge(b.transcript, context()))).toEqual([
      'the apply of shop-db sent again was answered 504 by the proxy in front of the provisioner (nginx) after 5.0s, where the first ended succeeded',
    ]);
  });

  it('still say the provisioner never answered 202 when it answered itself', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, ...answer(PROVISIONER_503_BEHIND_NGINX) });
    // A 400 is neither way of answering: the provisioner did not choose 200 for every call.
    b.post('plan', { at: 10, status: 400, body: {} });
    expect(acceptedBody.judge(b.transcript, context()).message).toBe('the provisioner never answered 202');
    expect(noOperationRead(b.transcript)?.message).toBe('the provisioner never answered 202 with an operationId, so no operation was read');
  });
});

describe('reads of an operation', () => {
  function accepted(): TranscriptBuilder {
    const b = new TranscriptBuilder();
    b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    return b;
  }

  it('say the proxy answered a read, in the counts and the notes of operation.transient-errors', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, took: 3, ...answer(NGINX_502_PAGE) });
    b.read(OP_ID, { at: 1010, took: 5000, ...answer(HAPROXY_504_PAGE) });
    b.read(OP_ID, { at: 6010, took: 4, ...answer(PROVISIONER_503_BEHIND_NGINX) });
    b.read(OP_ID, { at: 7010, body: IN_PROGRESS });
    b.read(OP_ID, { at: 8010, body: shopDbFinal() });
    const transient = operationTransientErrors.judge(b.transcript, context());
    expect(transient.message).toBe(
      '1 of 5 polls were answered 502 by the proxy in front of the provisioner (nginx); 1 of 5 polls were answered 504 by the proxy in front of the provisioner (HAProxy); 1 of 5 polls answered 503',
    );
    expect(notes(transient)).toEqual([
      'read sent 5ms after the 202 was answered 502 by the proxy in front of the provisioner (nginx) after 3ms',
      'read sent 1.0s after the 202 was answered 504 by the proxy in front of the provisioner (HAProxy) after 5.0s',
      'read sent 6.0s after the 202 answered 503',
    ]);
  });

  it('count the proxy answers of polls apart from those of probe reads', () => {
    const b = accepted();
    b.read(OP_ID, { at: 10, ...answer(NGINX_502_PAGE) });
    b.read(OP_ID, { at: 10, ...answer(NGINX_502_PAGE), tag: 'read-concurrent' });
    b.read(OP_ID, { at: 10, body: IN_PROGRESS, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1010, body: IN_PROGRESS });
    b.read(OP_ID, { at: 1010, ...answer(NGINX_502_PAGE), tag: 'read-concurrent' });
    b.read(OP_ID, { at: 1010, error: { kind: 'timeout', message: 'timed out' }, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 2010, body: shopDbFinal() });
    expect(operationTransientErrors.judge(b.transcript, context()).message).toBe(
      '1 of 3 polls, and 2 of 4 probe reads, were answered 502 by the proxy in front of the provisioner (nginx); 1 of 4 probe reads timed out',
    );
  });

  it("count a proxy's own 500 page as the proxy's, and a JSON 501 as the provisioner's", () => {
    const b = accepted();
    const page = '<html><body><center><h1>500 Internal Server Error</h1></center><hr><center>nginx</center></body></html>';
    b.read(OP_ID, { at: 10, took: 2, status: 500, body: page, contentType: 'text/html' });
    b.read(OP_ID, { at: 1010, status: 501, body: { message: 'not implemented' } });
    b.read(OP_ID, { at: 2010, body: shopDbFinal() });
    expect(notes(operationTransientErrors.judge(b.transcript, context()))).toEqual([
      'read sent 5ms after the 202 was answered 500 by the proxy in front of the provisioner (nginx) after 2ms',
      'read sent 1.0s after the 202 answered 501',
    ]);
  });
});

describe('the words for who answered', () => {
  const UNNAMED_502 = { status: 502, body: 'Bad Gateway', contentType: 'text/plain' };

  it('names the proxy when its answer shows which, and says "a proxy" when it does not', () => {
    expect(proxyWords({})).toBe('a proxy in front of the provisioner');
    expect(proxyWords({ name: 'nginx' })).toBe('the proxy in front of the provisioner (nginx)');
    const b = new TranscriptBuilder();
    const unnamed = b.post('plan', { at: 0, took: 7, ...UNNAMED_502 });
    expect(statusAnswered(unnamed)).toBe('was answered 502 by a proxy in front of the provisioner after 7ms');
    const { respondedAt: _respondedAt, ...noHeadersTime } = unnamed;
    expect(statusAnswered({ ...unnamed, respondedAt: unnamed.sentAt + 3 })).toBe('was answered 502 by a proxy in front of the provisioner after 3ms');
    expect(statusAnswered(noHeadersTime)).toBe('was answered 502 by a proxy in front of the provisioner after 7ms');
  });

  it('counts how many a proxy answered: it, both, all, or some of them', () => {
    const b = new TranscriptBuilder();
    const nginx = b.post('plan', { at: 0, ...answer(NGINX_502_PAGE) });
    const nginxAgain = b.post('plan', { at: 10, ...answer(NGINX_504_PAGE) });
    const unnamed = b.post('plan', { at: 20, ...UNNAMED_502 });
    const own = b.post('plan', { at: 30, body: shopDbFinal() });
    expect(proxyShare([own])).toBeUndefined();
    expect(proxyShare([nginx])).toBe('the proxy in front of the provisioner (nginx) answered it (502)');
    expect(proxyShare([nginx, nginxAgain])).toBe('the proxy in front of the provisioner (nginx) answered both (502, 504)');
    expect(proxyShare([nginx, nginxAgain, unnamed])).toBe('the proxy in front of the provisioner (nginx) answered all 3 (502, 504)');
    expect(proxyShare([unnamed, own])).toBe('a proxy in front of the provisioner answered 1 of 2 (502)');
    const haproxy = b.post('plan', { at: 40, ...answer(HAPROXY_503_PAGE) });
    expect(proxyShare([haproxy, nginx, own])).toBe('the proxies in front of the provisioner (HAProxy, nginx) answered 2 of 3 (502, 503)');
  });

  it('blames a proxy for a status never given only when no plan or apply got it', () => {
    const proxied = new TranscriptBuilder();
    proxied.post('plan', { at: 0, ...answer(NGINX_504_PAGE) });
    proxied.post('apply', { at: 10, error: { kind: 'reset', message: 'socket hang up' } });
    expect(neverAnswered(proxied.transcript, 202, 'the provisioner never answered 202')).toBe(
      'no plan or apply was answered 202: the proxy in front of the provisioner (nginx) answered 1 of 2 (504)',
    );
    proxied.post('apply', { at: 20, status: 202, body: { operationId: OP_ID } });
    expect(neverAnswered(proxied.transcript, 202, 'the provisioner never answered 202')).toBe('the provisioner never answered 202');
    const own = new TranscriptBuilder();
    own.post('plan', { at: 0, body: shopDbFinal() });
    expect(neverAnswered(own.transcript, 202, 'the provisioner never answered 202')).toBe('the provisioner never answered 202');
  });
});
