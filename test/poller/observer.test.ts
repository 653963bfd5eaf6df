import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProvisionerClient } from '../../src/client/client.js';
import { Poller, type OperationObserver } from '../../src/poller/poller.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { HAPROXY_504_PAGE, NGINX_502_PAGE, type ProxyPage } from '../support/proxy-pages.js';

const OP_ID = '0b6a3a52-1c1e-4f55-8a3b-6a1f8f0d2c11';
const FINAL = { outcome: 'succeeded', description: 'Done.', results: [{ id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'Done.' }] };

/** Answers the reads of one operation in turn: a page a proxy sends, or a JSON body with 200. */
function provisioner(answers: Array<ProxyPage | Record<string, unknown>>): Server {
  let reads = 0;
  return createServer((request, response) => {
    if (request.method === 'POST') {
      response.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ operationId: OP_ID }));
      return;
    }
    const answer = answers[Math.min(reads++, answers.length - 1)]!;
    if ('status' in answer && typeof answer.status === 'number') {
      const page = answer as ProxyPage;
      response.writeHead(page.status, { ...page.headers, 'content-type': page.contentType }).end(page.body);
    } else {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    }
  });
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

describe('the poller tells its observer what each read got', () => {
  it('a progress note when a read says in_progress, what the read answered when it does not', async () => {
    const server = provisioner([NGINX_502_PAGE, { outcome: 'in_progress', description: 'Copying.', results: [] }, HAPROXY_504_PAGE, FINAL]);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    open.push(() => new Promise((resolve) => server.close(() => resolve())));
    const client = new ProvisionerClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, transcript: new Transcript() });
    open.unshift(() => client.close());
    const heard: string[] = [];
    const observer: OperationObserver = {
      operationAccepted: (_id, _changeSet, _kind, _deadline, suite) => heard.push(`accepted by ${suite ?? '-'}`),
      operationRead: (_id, note, failed) => heard.push(`read: ${note ?? '-'} / ${failed ?? '-'}`),
      operationEnded: () => heard.push('ended'),
    };
    const poller = new Poller(client, { pollIntervalMs: 1, maxOperationDurationMs: 60_000, answerTimeoutMs: 10_000, concurrentReaders: 0, readAfterFinal: false }, observer);
    const accepted = await client.send({ suite: 'test', tag: 'apply', probe: false, method: 'POST', path: '/apply', body: '{"changes":[]}', timeoutMs: 10_000 });
    const conclusion = await poller.follow({ accepted, operationId: OP_ID, kind: 'apply', suite: 'test' });
    expect(conclusion.reason).toBe('final');
    expect(heard).toEqual(['accepted by test', 'read: - / read answered 502', 'read: Copying. / -', 'read: - / read answered 504', 'read: - / -', 'ended']);
  });
});
