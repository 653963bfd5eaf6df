import { Agent, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startReferenceProvisioner } from '../../src/reference/index.js';
import { accepted, read, readUntilFinal, referenceStarter, SHOP_DB, sleep, submit, UUID_V4 } from './support.js';

const start = referenceStarter();
const JSON_TYPE = 'application/json; charset=utf-8';

const EXPECTED_APPLY = {
  outcome: 'succeeded',
  description: 'Applied 2 changes to managed-resource/postgres of container-shop in test.',
  results: [
    {
      id: 'shop-db',
      environment: 'test',
      outcome: 'succeeded',
      description: 'Created shop-db in test.',
      outputs: { password: 'vault://reference/test/shop-db-password' },
    },
    { id: 'shop-archive', environment: 'test', outcome: 'succeeded', description: 'Removed shop-archive in test.' },
  ],
};

describe('sync mode', () => {
  it('answers plan and apply at once with one result per change', async () => {
    const { url } = await start({ mode: 'sync' });
    const plan = await submit(url, 'plan');
    expect(plan.status).toBe(200);
    expect(plan.contentType).toBe(JSON_TYPE);
    expect(plan.json).toEqual({
      outcome: 'succeeded',
      description: 'Planned 2 changes for managed-resource/postgres of container-shop in test; nothing changed.',
      results: [
        { id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'Would create shop-db in test; nothing changed.' },
        { id: 'shop-archive', environment: 'test', outcome: 'succeeded', description: 'Would remove shop-archive in test; nothing changed.' },
      ],
    });
    const apply = await submit(url, 'apply');
    expect(apply.status).toBe(200);
    expect(apply.json).toEqual(EXPECTED_APPLY);
  });

  it('gives the same outputs when the same change set is applied again', async () => {
    const { url } = await start({ mode: 'sync' });
    const splunk = { kind: 'consumed-resource', type: 'splunk-index', changes: [{ id: 'shop-logs', environment: 'test', action: 'created' }] };
    const first = await submit(url, 'apply', splunk);
    const second = await submit(url, 'apply', splunk);
    const results = first.json?.results as Array<{ outputs: Record<string, string> }>;
    expect(results[0]!.outputs.resourceId).toMatch(/^splunk-index-[0-9a-f]{12}$/);
    expect(second.json).toEqual(first.json);
  });
});

describe('async mode', () => {
  it('accepts with a random v4 operationId, reports progress, then the final answer, the same on every read', async () => {
    const { url } = await start({ mode: 'async', workMs: 300 });
    const answer = await submit(url, 'apply');
    expect(answer.status).toBe(202);
    expect(answer.contentType).toBe(JSON_TYPE);
    expect(Object.keys(answer.json ?? {})).toEqual(['operationId']);
    const id = String(answer.json?.operationId);
    expect(id).toMatch(UUID_V4);

    const running = await read(url, id);
    expect(running.status).toBe(200);
    expect(running.contentType).toBe(JSON_TYPE);
    expect(running.json).toEqual({ outcome: 'in_progress', description: 'Step 1 of 2: creating shop-db in test.', results: [] });

    const reads = await readUntilFinal(url, id);
    expect(reads.at(-1)!.json).toEqual(EXPECTED_APPLY);
    const again = await read(url, id);
    expect(again.status).toBe(200);
    expect(again.text).toBe(reads.at(-1)!.text);
  });

  it('answers plans with 202 as well and gives distinct ids to the same change set', async () => {
    const { url } = await start({ mode: 'async', workMs: 100 });
    const first = await accepted(url, 'plan');
    const second = await accepted(url, 'plan');
    expect(first).not.toBe(second);
    const [a, b] = await Promise.all([readUntilFinal(url, first), readUntilFinal(url, second)]);
    expect(a.at(-1)!.json?.outcome).toBe('succeeded');
    expect(a.at(-1)!.json).toEqual(b.at(-1)!.json);
  });

  it('answers at once with 200 when it already runs maxOperations operations', async () => {
    const { url } = await start({ mode: 'async', workMs: 5000, maxOperations: 2 });
    expect((await submit(url, 'apply')).status).toBe(202);
    expect((await submit(url, 'apply')).status).toBe(202);
    const third = await submit(url, 'apply');
    expect(third.status).toBe(200);
    expect(third.json).toEqual(EXPECTED_APPLY);
  });

  it('forgets a finished operation maxOperationDurationMs after its work ended, not before', async () => {
    const { url } = await start({ mode: 'async', workMs: 50, maxOperationDurationMs: 300 });
    const id = await accepted(url);
    await sleep(100);
    expect((await read(url, id)).json?.outcome).toBe('succeeded');
    await sleep(350);
    expect((await read(url, id)).status).toBe(404);
  });
});

describe('mixed mode (the default)', () => {
  it('plans at once and applies in the background', async () => {
    const { url } = await start({ workMs: 100 });
    const plan = await submit(url, 'plan');
    expect(plan.status).toBe(200);
    expect(plan.json?.outcome).toBe('succeeded');
    const id = await accepted(url, 'apply');
    expect(id).toMatch(UUID_V4);
    expect((await readUntilFinal(url, id)).at(-1)!.json).toEqual(EXPECTED_APPLY);
  });
});

describe('reads of ids it does not know', () => {
  it('answers 404 JSON to an unknown UUID, again on a second read', async () => {
    const { url } = await start({ mode: 'async' });
    const id = randomUUID();
    for (const answer of [await read(url, id), await read(url, id)]) {
      expect(answer.status).toBe(404);
      expect(answer.contentType).toBe(JSON_TYPE);
      expect(answer.json?.error).toBe(`no operation "${id}"`);
    }
  });

  it.each(['not-a-uuid', '%20', 'x'.repeat(3000), 'a%2Fb', '..%2F..%2Fplan', '%E0%A4%A'])('answers 404 JSON to the malformed id %s', async (segment) => {
    const { url } = await start({ mode: 'async' });
    const answer = await read(url, segment);
    expect(answer.status).toBe(404);
    expect(answer.contentType).toBe(JSON_TYPE);
    expect(typeof answer.json?.error).toBe('string');
  });
});

describe('bad input', () => {
  it('answers 400 JSON to a body that is not JSON', async () => {
    const { url } = await start();
    const answer = await submit(url, 'apply', '{"changes": [');
    expect(answer.status).toBe(400);
    expect(answer.contentType).toBe(JSON_TYPE);
    expect(String(answer.json?.error)).toMatch(/^the body is not JSON/);
  });

  it.each([
    ['an array', []],
    ['no changes', { kind: 'managed-resource' }],
    ['empty changes', { changes: [] }],
    ['a change without id', { changes: [{ environment: 'test', action: 'created' }] }],
    ['an unknown action', { changes: [{ id: 'a', environment: 'test', action: 'deleted' }] }],
    ['a numeric kind', { kind: 7, changes: [{ id: 'a', environment: 'test', action: 'created' }] }],
  ])('answers 400 JSON to a change set with %s, in every mode', async (_name, body) => {
    const { url } = await start({ mode: 'async' });
    const answer = await submit(url, 'plan', body);
    expect(answer.status).toBe(400);
    expect(answer.contentType).toBe(JSON_TYPE);
    expect(String(answer.json?.error)).toMatch(/^the body is not a change set/);
  });

  it('answers 413 JSON to a body over 1 MiB', async () => {
    const { url } = await start();
    const answer = await submit(url, 'plan', 'x'.repeat(1024 * 1024 + 1));
    expect(answer.status).toBe(413);
    expect(answer.contentType).toBe(JSON_TYPE);
    expect(answer.json?.error).toMatch(/larger than/);
  });

  it('answers 405 to a wrong method and 404 JSON to other paths', async () => {
    const { url } = await start();
    const wrongMethod = await fetch(`${url}/plan`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(wrongMethod.headers.get('content-type')).toBe(JSON_TYPE);
    const deleteRead = await fetch(`${url}/operations/${randomUUID()}`, { method: 'DELETE' });
    expect(deleteRead.status).toBe(405);
    const elsewhere = await fetch(`${url}/health`);
    expect(elsewhere.status).toBe(404);
    expect(((await elsewhere.json()) as { error: string }).error).toMatch(/nothing is served/);
  });
});

describe('starting and stopping', () => {
  it('rejects an unknown fault and names the known ones', async () => {
    await expect(startReferenceProvisioner({ fault: 'no-such-fault' })).rejects.toThrow(/unknown fault "no-such-fault".*status-409-on-apply/);
  });

  it('drops open keep-alive connections on close', async () => {
    const reference = await startReferenceProvisioner({ mode: 'sync' });
    const agent = new Agent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${reference.url}/operations/x`, { agent }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(404);
    // close() must not wait for the agent's idle socket to time out.
    await reference.close();
    agent.destroy();
    await expect(fetch(`${reference.url}/plan`, { method: 'POST', body: JSON.stringify(SHOP_DB) })).rejects.toThrow();
  });
});
