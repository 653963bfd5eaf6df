import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ReferenceOptions } from '../../src/reference/index.js';
import { FAULTS, isFaultName, REFERENCE_MODES } from '../../src/reference/index.js';
import { RULE_IDS } from '../../src/rules/index.js';
import { accepted, read, readUntilFinal, referenceStarter, SHOP_DB, sleep, submit, UUID_V4 } from './support.js';

const start = referenceStarter();
const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const tested = new Set<string>();

/** Tests of one fault; names are collected so that a fault without a test is noticed. */
function fault(name: string, body: (options: ReferenceOptions & { fault: string }) => void): void {
  tested.add(name);
  describe(name, () => body({ fault: name }));
}

describe('the fault table', () => {
  it('names each fault once, each breaking rules of the catalog, the rule it is about first', () => {
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    for (const f of FAULTS) {
      expect(f.breaks.length).toBeGreaterThan(0);
      for (const id of f.breaks) expect(RULE_IDS).toContain(id);
      expect(new Set(f.breaks).size).toBe(f.breaks.length);
      expect(isFaultName(f.name)).toBe(true);
      expect(f.summary.length).toBeGreaterThan(0);
      expect(f.needs.modes.length).toBeGreaterThan(0);
      for (const mode of f.needs.modes) expect(REFERENCE_MODES).toContain(mode);
      // A fault acts through at least one seam of the reference.
      expect(Object.keys(f).filter((key) => !['name', 'breaks', 'needs', 'summary'].includes(key)), f.name).not.toEqual([]);
    }
    expect(isFaultName('correct')).toBe(false);
  });

  it('has a test for every fault', () => {
    expect([...tested].sort()).toEqual(FAULTS.map((f) => f.name).sort());
  });
});

fault('status-409-on-apply', (options) => {
  it.each(['sync', 'async'] as const)('answers apply with 409 JSON in %s mode, and plans as usual', async (mode) => {
    const { url } = await start({ ...options, mode });
    const apply = await submit(url, 'apply');
    expect(apply.status).toBe(409);
    expect(apply.contentType).toBe(JSON_TYPE);
    expect(typeof apply.json?.error).toBe('string');
    expect([200, 202]).toContain((await submit(url, 'plan')).status);
  });
});

fault('text-plain-answers', (options) => {
  it('labels 200 and 202 answers to POST text/plain, with JSON bodies, and leaves reads alone', async () => {
    const { url } = await start({ ...options, mode: 'mixed', workMs: 50 });
    const plan = await submit(url, 'plan');
    expect(plan.status).toBe(200);
    expect(plan.contentType).toBe(TEXT_TYPE);
    expect(plan.json?.outcome).toBe('succeeded');
    const apply = await submit(url, 'apply');
    expect(apply.status).toBe(202);
    expect(apply.contentType).toBe(TEXT_TYPE);
    expect(String(apply.json?.operationId)).toMatch(UUID_V4);
    const final = (await readUntilFinal(url, String(apply.json?.operationId))).at(-1)!;
    expect(final.contentType).toBe(JSON_TYPE);
    expect((await submit(url, 'plan', 'not json')).contentType).toBe(JSON_TYPE);
  });
});

fault('slow-answers', (options) => {
  it('holds answers to POST for slowAnswerMs, then answers correctly; reads are prompt', async () => {
    const { url } = await start({ ...options, mode: 'mixed', workMs: 50, slowAnswerMs: 200 });
    let began = performance.now();
    const plan = await submit(url, 'plan');
    expect(performance.now() - began).toBeGreaterThanOrEqual(190);
    expect(plan.json?.outcome).toBe('succeeded');
    began = performance.now();
    const id = await accepted(url);
    expect(performance.now() - began).toBeGreaterThanOrEqual(190);
    // A read sent while a POST is held is answered first: reads are not held, however loaded the machine.
    const order: string[] = [];
    const held = submit(url, 'plan').then(() => order.push('plan'));
    await read(url, id).then(() => order.push('read'));
    await held;
    expect(order).toEqual(['read', 'plan']);
  });
});

fault('numeric-operation-id', (options) => {
  it('puts distinct numbers in operationId, and those ids can be read', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const first = await submit(url, 'apply');
    const second = await submit(url, 'apply');
    expect(first.status).toBe(202);
    expect(first.json).toEqual({ operationId: 12345 });
    expect(second.json).toEqual({ operationId: 12346 });
    expect((await readUntilFinal(url, '12345')).at(-1)!.json?.outcome).toBe('succeeded');
  });
});

fault('extra-accepted-fields', (options) => {
  it('adds status and href to a 202 body that is otherwise correct', async () => {
    const { url } = await start({ ...options, mode: 'async' });
    const answer = await submit(url, 'apply');
    const id = String(answer.json?.operationId);
    expect(id).toMatch(UUID_V4);
    expect(answer.json).toEqual({ operationId: id, status: 'accepted', href: `/operations/${id}` });
  });
});

fault('non-uuid-operation-id', (options) => {
  it('issues op-1, op-2, … and serves reads of them, while other non-UUID ids stay unknown', async () => {
    // Work long enough that op-1 is surely still running when it is first read, even on a loaded machine.
    const { url } = await start({ ...options, mode: 'async', workMs: 1000 });
    expect(await accepted(url)).toBe('op-1');
    expect(await accepted(url, 'plan')).toBe('op-2');
    expect((await read(url, 'op-1')).json?.outcome).toBe('in_progress');
    expect((await readUntilFinal(url, 'op-1')).at(-1)!.json?.outcome).toBe('succeeded');
    expect((await read(url, 'op-3')).status).toBe(404);
    expect((await read(url, 'not-a-uuid')).status).toBe(404);
  });
});

fault('repeated-operation-id', (options) => {
  it('gives the same change set the same v4-shaped id and the same, unrestarted work', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 150 });
    const first = await accepted(url);
    expect(first).toMatch(UUID_V4);
    expect(await accepted(url, 'plan')).not.toBe(first);
    await sleep(200);
    expect(await accepted(url)).toBe(first);
    // Restarted work would be in progress again.
    expect((await read(url, first)).json?.outcome).toBe('succeeded');
  });
});

fault('time-ordered-operation-id', (options) => {
  it('issues distinct version 7 UUIDs that start with the current time', async () => {
    const { url } = await start({ ...options, mode: 'async' });
    const ids = [await accepted(url), await accepted(url)];
    expect(ids[0]).not.toBe(ids[1]);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const unixMs = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
      expect(Math.abs(unixMs - Date.now())).toBeLessThan(5000);
    }
  });
});

fault('in-progress-on-post', (options) => {
  it('answers 200 in_progress with no results to POST in sync mode', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    for (const kind of ['plan', 'apply'] as const) {
      const answer = await submit(url, kind);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ outcome: 'in_progress', description: 'Working on it.', results: [] });
    }
  });

  it('leaves 202 answers and their final reads alone', async () => {
    const { url } = await start({ ...options, mode: 'mixed', workMs: 50 });
    const final = (await readUntilFinal(url, await accepted(url))).at(-1)!;
    expect(final.json?.outcome).toBe('succeeded');
    expect(final.json?.results).toHaveLength(2);
  });
});

fault('missing-result', (options) => {
  it('leaves the last change out of 200 answers to POST and of final reads', async () => {
    const { url } = await start({ ...options, mode: 'mixed', workMs: 300 });
    const plan = await submit(url, 'plan');
    expect((plan.json?.results as Array<{ id: string }>).map((r) => r.id)).toEqual(['shop-db']);
    const id = await accepted(url);
    expect((await read(url, id)).json?.results).toEqual([]);
    const final = (await readUntilFinal(url, id)).at(-1)!;
    expect(final.json?.outcome).toBe('succeeded');
    expect((final.json?.results as Array<{ id: string }>).map((r) => r.id)).toEqual(['shop-db']);
  });
});

fault('bad-result-outcome', (options) => {
  it('says "ok" in every result while the overall outcome stays succeeded', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const final = (await readUntilFinal(url, await accepted(url))).at(-1)!;
    expect(final.json?.outcome).toBe('succeeded');
    expect((final.json?.results as Array<{ outcome: string }>).map((r) => r.outcome)).toEqual(['ok', 'ok']);
  });
});

fault('inconsistent-outcome', (options) => {
  it('says succeeded overall while the first result failed', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    const apply = await submit(url, 'apply');
    expect(apply.json?.outcome).toBe('succeeded');
    expect(apply.json?.results).toEqual([
      { id: 'shop-db', environment: 'test', outcome: 'failed', description: 'Could not create shop-db in test.' },
      { id: 'shop-archive', environment: 'test', outcome: 'succeeded', description: 'Removed shop-archive in test.' },
    ]);
  });
});

fault('read-status-202', (options) => {
  it('answers reads of running work with 202 and the in_progress body, and the final read with 200', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 600 });
    const id = await accepted(url);
    const running = await read(url, id);
    expect(running.status).toBe(202);
    expect(running.json).toMatchObject({ outcome: 'in_progress', results: [] });
    const final = (await readUntilFinal(url, id)).at(-1)!;
    expect(final.status).toBe(200);
    expect(final.json?.outcome).toBe('succeeded');
  });
});

fault('flaky-reads', (options) => {
  it('answers every second read with a 503 proxy page until the final answer, and never after it', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 150 });
    const id = await accepted(url);
    const reads = await readUntilFinal(url, id, 20);
    expect(reads.map((r) => r.status)).toEqual(reads.map((_r, i) => (i % 2 === 1 ? 503 : 200)));
    const proxyPage = reads[1]!;
    expect(proxyPage.contentType).toBe('text/html; charset=utf-8');
    expect(proxyPage.text).toContain('<h1>503 Service Unavailable</h1>');
    const later = [await read(url, id), await read(url, id), await read(url, id)];
    expect(later.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(later.every((r) => r.text === reads.at(-1)!.text)).toBe(true);
    const unknown = [await read(url, randomUUID()), await read(url, randomUUID())];
    expect(unknown.map((r) => [r.status, r.contentType])).toEqual([[404, JSON_TYPE], [404, JSON_TYPE]]);
  });
});

fault('read-text-plain', (options) => {
  it('labels 200 reads text/plain, in progress and final, and nothing else', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 600 });
    const answer = await submit(url, 'apply');
    expect(answer.contentType).toBe(JSON_TYPE);
    const reads = await readUntilFinal(url, String(answer.json?.operationId));
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.map((r) => r.contentType)).toEqual(reads.map(() => TEXT_TYPE));
    expect(reads.at(-1)!.json?.outcome).toBe('succeeded');
    expect((await read(url, randomUUID())).contentType).toBe(JSON_TYPE);
  });
});

fault('upper-case-outcome', (options) => {
  it('writes the outcomes of reads in upper case, in progress and final, and answers POST as usual', async () => {
    const { url } = await start({ ...options, mode: 'mixed', workMs: 600 });
    expect((await submit(url, 'plan')).json?.outcome).toBe('succeeded');
    const id = await accepted(url);
    const first = await read(url, id);
    expect(first.json).toMatchObject({ outcome: 'IN_PROGRESS', results: [] });
    let final = await read(url, id);
    while (final.json?.outcome === 'IN_PROGRESS') final = await sleep(20).then(() => read(url, id));
    expect(final.status).toBe(200);
    expect(final.json?.outcome).toBe('SUCCEEDED');
    expect((final.json?.results as Array<{ outcome: string }>).map((r) => r.outcome)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect((await read(url, randomUUID())).status).toBe(404);
  });
});

fault('partial-results', (options) => {
  it('puts the results done so far, at least one, in in_progress reads', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 1000 });
    const id = await accepted(url);
    const reads = await readUntilFinal(url, id);
    const first = reads[0]!;
    expect(first.json?.outcome).toBe('in_progress');
    expect((first.json?.results as Array<{ id: string }>).map((r) => r.id)).toEqual(['shop-db']);
    expect(reads.at(-1)!.json?.results).toHaveLength(2);
  });
});

fault('empty-progress-note', (options) => {
  it('answers in_progress with an empty description', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 600 });
    const id = await accepted(url);
    expect((await read(url, id)).json).toEqual({ outcome: 'in_progress', description: '', results: [] });
    expect(String((await readUntilFinal(url, id)).at(-1)!.json?.description).length).toBeGreaterThan(0);
  });
});

fault('in-progress-after-final', (options) => {
  it('alternates in_progress and the final answer on reads after the final answer, starting with in_progress', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const id = await accepted(url);
    const final = (await readUntilFinal(url, id)).at(-1)!;
    const later = [];
    for (let i = 0; i < 4; i++) later.push(await read(url, id));
    expect(later.map((r) => r.json?.outcome)).toEqual(['in_progress', 'succeeded', 'in_progress', 'succeeded']);
    expect(later[0]!.json?.results).toEqual([]);
    expect(later[1]!.text).toBe(final.text);
  });
});

fault('stale-after-final', (options) => {
  it('gives the final answer right after it, and in_progress again half a second later', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const id = await accepted(url);
    const final = (await readUntilFinal(url, id)).at(-1)!;
    expect((await read(url, id)).text).toBe(final.text);
    await sleep(600);
    const stale = await read(url, id);
    expect(stale.json).toMatchObject({ outcome: 'in_progress', results: [] });
  });
});

fault('final-changes', (options) => {
  it('answers failed, for every change, on every read after the final answer', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const id = await accepted(url);
    expect((await readUntilFinal(url, id)).at(-1)!.json?.outcome).toBe('succeeded');
    const later = [await read(url, id), await read(url, id)];
    for (const answer of later) {
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        outcome: 'failed',
        description: 'Could not apply 2 changes to managed-resource/postgres of container-shop in test.',
        results: [
          { id: 'shop-db', environment: 'test', outcome: 'failed', description: 'Could not create shop-db in test.' },
          { id: 'shop-archive', environment: 'test', outcome: 'failed', description: 'Could not remove shop-archive in test.' },
        ],
      });
    }
  });
});

fault('late-registration', (options) => {
  it('answers 404 JSON right after the 202 and knows the operation from half the work time on', async () => {
    // Known from 450 ms on, ended at 900 ms: each read has hundreds of milliseconds of slack on a loaded machine.
    const { url } = await start({ ...options, mode: 'async', workMs: 900 });
    const id = await accepted(url);
    const early = await read(url, id);
    expect(early.status).toBe(404);
    expect(early.contentType).toBe(JSON_TYPE);
    await sleep(500);
    expect((await read(url, id)).json?.outcome).toBe('in_progress');
    expect((await readUntilFinal(url, id)).at(-1)!.json?.outcome).toBe('succeeded');
  });

  it('waits at most 500 ms however long the work takes', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 60_000 });
    const id = await accepted(url);
    expect((await read(url, id)).status).toBe(404);
    await sleep(550);
    expect((await read(url, id)).json?.outcome).toBe('in_progress');
  });
});

fault('never-finishes', (options) => {
  it('stays in_progress long after the work time', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 30 });
    const id = await accepted(url);
    await sleep(150);
    const answer = await read(url, id);
    expect(answer.json?.outcome).toBe('in_progress');
    expect(String(answer.json?.description)).toMatch(/^Step 2 of 2/);
  });
});

fault('unknown-200', (options) => {
  it('answers 200 Queued to unknown UUIDs, every time, and 404 to ids that are not UUIDs', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const id = randomUUID();
    for (const answer of [await read(url, id), await read(url, id)]) {
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ outcome: 'in_progress', description: 'Queued.', results: [] });
    }
    expect((await read(url, 'not-a-uuid')).status).toBe(404);
    expect((await readUntilFinal(url, await accepted(url))).at(-1)!.json?.outcome).toBe('succeeded');
  });
});

fault('unknown-500', (options) => {
  it('answers 500 to unknown UUIDs, every time, 404 to ids that are not UUIDs, and its own operations as usual', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const id = randomUUID();
    for (const answer of [await read(url, id), await read(url, id)]) {
      expect(answer.status).toBe(500);
      expect(answer.contentType).toBe(JSON_TYPE);
    }
    expect((await read(url, 'not-a-uuid')).status).toBe(404);
    expect((await readUntilFinal(url, await accepted(url))).at(-1)!.json?.outcome).toBe('succeeded');
  });
});

fault('forget-after-final', (options) => {
  it('forgets an operation once its final answer was read', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const id = await accepted(url);
    expect((await readUntilFinal(url, id)).at(-1)!.json?.outcome).toBe('succeeded');
    const later = await read(url, id);
    expect(later.status).toBe(404);
    expect(later.contentType).toBe(JSON_TYPE);
  });
});

fault('plain-404', (options) => {
  it('answers every 404 with a text/plain Not Found', async () => {
    const { url } = await start({ ...options, mode: 'async' });
    const answers = [await read(url, randomUUID()), await read(url, 'not-a-uuid'), await submit(url, 'plan').then(() => read(url, 'x'))];
    const elsewhere = await fetch(`${url}/nowhere`);
    expect(answers.map((a) => [a.status, a.contentType, a.text])).toEqual(answers.map(() => [404, TEXT_TYPE, 'Not Found']));
    expect([elsewhere.status, elsewhere.headers.get('content-type'), await elsewhere.text()]).toEqual([404, TEXT_TYPE, 'Not Found']);
  });
});

fault('malformed-id-500', (options) => {
  it('answers 500 JSON to ids that are not UUIDs, and reads of UUIDs correctly', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    for (const segment of ['not-a-uuid', 'a%2Fb', 'x'.repeat(500)]) {
      const answer = await read(url, segment);
      expect(answer.status).toBe(500);
      expect(answer.contentType).toBe(JSON_TYPE);
    }
    expect((await read(url, randomUUID())).status).toBe(404);
    expect((await readUntilFinal(url, await accepted(url))).at(-1)!.json?.outcome).toBe('succeeded');
  });
});

/** A change set with one change, as the property suites' shrunk counterexamples look. */
function oneChange(change: Record<string, unknown>): Record<string, unknown> {
  return { changes: [{ action: 'created', ...change }] };
}

function resultIds(answer: { json?: Record<string, unknown> }): string[] {
  return (answer.json?.results as Array<{ id: string }>).map((r) => r.id);
}

fault('long-id-result-lost', (options) => {
  it('drops the result of an id of 21 characters, in answers to POST and in final reads, and keeps one of 20', async () => {
    const { url } = await start({ ...options, mode: 'mixed', workMs: 50 });
    const long = 'a'.repeat(21);
    const body = { changes: [{ id: long, environment: 'test', action: 'created' }, { id: 'b'.repeat(20), environment: 'test', action: 'created' }] };
    expect(resultIds(await submit(url, 'plan', body))).toEqual(['b'.repeat(20)]);
    const final = (await readUntilFinal(url, await accepted(url, 'apply', body))).at(-1)!;
    expect(resultIds(final)).toEqual(['b'.repeat(20)]);
    // Characters, not UTF-16 units: twenty emoji are forty units and still kept.
    expect(resultIds(await submit(url, 'plan', oneChange({ id: '🙂'.repeat(20), environment: 'test' })))).toEqual(['🙂'.repeat(20)]);
  });

  it('leaves the bundled short ids alone', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    expect(resultIds(await submit(url, 'apply'))).toEqual(['shop-db', 'shop-archive']);
  });
});

fault('removed-result-renamed', (options) => {
  it('renames the result of a removed change only', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const final = (await readUntilFinal(url, await accepted(url))).at(-1)!;
    expect(resultIds(final)).toEqual(['shop-db', 'shop-archive-removed']);
    const plan = await submit(url, 'plan', oneChange({ id: 'a', environment: 'test', action: 'updated' }));
    expect(resultIds((await readUntilFinal(url, String(plan.json?.operationId))).at(-1)!)).toEqual(['a']);
  });
});

fault('punctuation-environment-500', (options) => {
  it.each(['.', '_', 'prod/eu', 'a:b', '¡'])('answers 500 JSON to an environment %j', async (environment) => {
    const { url } = await start({ ...options, mode: 'sync' });
    const answer = await submit(url, 'plan', oneChange({ id: 'a', environment }));
    expect(answer.status).toBe(500);
    expect(answer.contentType).toBe(JSON_TYPE);
  });

  it.each(['test', 'eu-west-1', 'prod eu', 'prüfung', '+'])('answers an environment %j as usual', async (environment) => {
    const { url } = await start({ ...options, mode: 'sync' });
    expect((await submit(url, 'plan', oneChange({ id: 'a', environment }))).status).toBe(200);
  });

  it('still refuses an invalid change set with 400', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    expect((await submit(url, 'plan', { changes: [{ id: 'a', environment: '.', action: 'moved' }] })).status).toBe(400);
  });
});

fault('missing-properties-500', (options) => {
  it('answers 500 JSON to a change without a properties field', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    const answer = await submit(url, 'plan', oneChange({ id: 'a', environment: 'test' }));
    expect(answer.status).toBe(500);
    expect(answer.contentType).toBe(JSON_TYPE);
  });

  it.each([{}, { size: 's' }])('answers a change whose properties are %j as usual', async (properties) => {
    const { url } = await start({ ...options, mode: 'sync' });
    expect((await submit(url, 'plan', oneChange({ id: 'a', environment: 'test', properties }))).status).toBe(200);
  });
});

fault('nested-json-500', (options) => {
  const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
  it('answers 500 to JSON nested 51 deep, and 400 to 50 deep or to unclosed brackets', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    expect((await submit(url, 'plan', nested(51))).status).toBe(500);
    expect((await submit(url, 'plan', nested(10_000))).status).toBe(500);
    expect((await submit(url, 'plan', nested(50))).status).toBe(400);
    expect((await submit(url, 'plan', '['.repeat(10_000))).status).toBe(400);
    expect((await submit(url, 'plan')).status).toBe(200);
  });
});

fault('trailing-garbage-accepted', (options) => {
  it('takes a change set with text after it for the change set alone, and still refuses what never becomes JSON', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    const text = JSON.stringify(SHOP_DB);
    for (const garbage of ['}', ' trailing', ',{}', '\u0000']) expect((await submit(url, 'plan', text + garbage)).status).toBe(200);
    expect((await submit(url, 'plan', text.slice(0, -1))).status).toBe(400);
    expect((await submit(url, 'plan', `'${text}'`)).status).toBe(400);
    expect((await submit(url, 'plan', '[1]x')).status).toBe(400);
    expect((await submit(url, 'plan', '')).status).toBe(400);
  });
});

describe('a correct reference gives none of the faulty answers', () => {
  it('answers a full round with JSON, UUID v4, empty in-progress results and a stable final answer', async () => {
    const { url } = await start({ mode: 'async', workMs: 100 });
    const answer = await submit(url, 'apply', SHOP_DB);
    expect(answer.json).toEqual({ operationId: expect.stringMatching(UUID_V4) });
    const reads = await readUntilFinal(url, String(answer.json?.operationId));
    for (const r of reads.slice(0, -1)) {
      expect(r.status).toBe(200);
      expect(r.json?.results).toEqual([]);
      expect(String(r.json?.description).length).toBeGreaterThan(0);
    }
    const later = [await read(url, String(answer.json?.operationId)), await read(url, String(answer.json?.operationId))];
    expect(later.map((r) => r.text)).toEqual([reads.at(-1)!.text, reads.at(-1)!.text]);
  });
});

fault('racing-reads', (options) => {
  it('answers in_progress to the third of three reads at once after the final answer, and the final answer otherwise', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const id = await accepted(url);
    expect((await readUntilFinal(url, id)).at(-1)!.json?.outcome).toBe('succeeded');
    expect((await Promise.all([read(url, id), read(url, id)])).map((a) => a.json?.outcome)).toEqual(['succeeded', 'succeeded']);
    const three = await Promise.all([read(url, id), read(url, id), read(url, id)]);
    expect(three.map((a) => a.json?.outcome).sort()).toEqual(['in_progress', 'succeeded', 'succeeded']);
    expect((await read(url, id)).json?.outcome).toBe('succeeded');
  });
});

/** The outputs of each result of an answer, by change id. */
function outputsOf(answer: { json?: Record<string, unknown> }): Record<string, unknown> {
  return Object.fromEntries((answer.json?.results as Array<{ id: string; outputs?: unknown }>).map((r) => [r.id, r.outputs]));
}

fault('fresh-secret-outputs', (options) => {
  it('gives every apply a fresh vault URL for the secret, and leaves plans alone', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    const [first, second] = [await submit(url, 'apply'), await submit(url, 'apply')];
    const passwords = [first, second].map((answer) => (outputsOf(answer)['shop-db'] as { password: string }).password);
    for (const password of passwords) expect(password).toMatch(/^vault:\/\/reference\/test\/shop-db-password-[0-9a-f]{12}$/);
    expect(passwords[0]).not.toBe(passwords[1]);
    expect(first.json?.outcome).toBe('succeeded');
    expect((await submit(url, 'plan')).json).toEqual((await submit(url, 'plan')).json);
  });

  it('keeps the final answer of one operation the same on every read', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 50 });
    const id = await accepted(url);
    const final = (await readUntilFinal(url, id)).at(-1)!;
    expect((await read(url, id)).text).toBe(final.text);
  });
});

/** The shop-db change set with every change's action replaced: updated, or removed. */
function withActions(...actions: string[]): typeof SHOP_DB {
  return { ...SHOP_DB, changes: SHOP_DB.changes.map((change, index) => ({ ...change, action: actions[index] ?? change.action })) };
}

fault('updated-new-outputs', (options) => {
  it('gives updated changes a new revision in their outputs on every apply, and leaves other changes and plans alone', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    const body = withActions('updated', 'removed');
    const [first, second] = [await submit(url, 'apply', body), await submit(url, 'apply', body)];
    const revisions = [first, second].map((answer) => (outputsOf(answer)['shop-db'] as { revision: string }).revision);
    for (const revision of revisions) expect(revision).toMatch(/^[0-9a-f]{8}$/);
    expect(revisions[0]).not.toBe(revisions[1]);
    expect(outputsOf(first)['shop-archive']).toBeUndefined();
    expect(first.json?.outcome).toBe('succeeded');
    // Created changes keep their outputs, applied again or not.
    expect(outputsOf(await submit(url, 'apply'))).toEqual(outputsOf(await submit(url, 'apply')));
    expect((await submit(url, 'plan', body)).json).toEqual((await submit(url, 'plan', body)).json);
  });
});

fault('batch-new-outputs', (options) => {
  it('gives every change of a set of two or more a new batch id in its outputs on every apply, and leaves sets of one alone', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    const [first, second] = [await submit(url, 'apply'), await submit(url, 'apply')];
    const batches = [first, second].map((answer) => Object.values(outputsOf(answer)).map((outputs) => (outputs as { batch: string }).batch));
    for (const batch of batches) expect(batch).toEqual([expect.stringMatching(/^batch-[0-9a-f]{8}$/), batch[0]]);
    expect(batches[0]![0]).not.toBe(batches[1]![0]);
    expect(first.json?.outcome).toBe('succeeded');
    const single = oneChange({ id: 'shop-db', environment: 'test', properties: { size: 'small' } });
    expect(outputsOf(await submit(url, 'apply', single))).toEqual(outputsOf(await submit(url, 'apply', single)));
    expect((await submit(url, 'plan')).json).toEqual((await submit(url, 'plan')).json);
  });
});

fault('status-409-on-repeat', (options) => {
  it('answers 409 JSON to an apply of a change set whose earlier apply has ended', async () => {
    const { url } = await start({ ...options, mode: 'mixed', workMs: 50 });
    expect((await readUntilFinal(url, await accepted(url))).at(-1)!.json?.outcome).toBe('succeeded');
    const repeat = await submit(url, 'apply');
    expect(repeat.status).toBe(409);
    expect(repeat.contentType).toBe(JSON_TYPE);
    expect(repeat.json?.error).toBe('this change set was already applied');
    expect((await submit(url, 'apply', { ...SHOP_DB, changes: SHOP_DB.changes.slice(0, 1) })).status).toBe(202);
    expect((await submit(url, 'plan')).status).toBe(200);
  });

  it('accepts a repeat while the first apply still runs', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 5000 });
    await accepted(url);
    expect((await submit(url, 'apply')).status).toBe(202);
  });
});

fault('already-running', (options) => {
  it('ends a repeat sent while the first apply runs with a failed final answer, and the first one as usual', async () => {
    const { url } = await start({ ...options, mode: 'async', workMs: 200 });
    const first = await accepted(url);
    const repeat = await accepted(url);
    const [firstFinal, repeatFinal] = await Promise.all([readUntilFinal(url, first), readUntilFinal(url, repeat)]);
    expect(firstFinal.at(-1)!.json?.outcome).toBe('succeeded');
    expect(repeatFinal.at(-1)!.json).toEqual({
      outcome: 'failed',
      description: 'An apply of this change set is already running.',
      results: [
        { id: 'shop-db', environment: 'test', outcome: 'failed', description: 'Not applied: an apply of shop-db in test is already running.' },
        { id: 'shop-archive', environment: 'test', outcome: 'failed', description: 'Not applied: an apply of shop-archive in test is already running.' },
      ],
    });
    // Once nothing runs, the same apply succeeds again.
    expect((await readUntilFinal(url, await accepted(url))).at(-1)!.json?.outcome).toBe('succeeded');
  });
});

fault('drifting-plan', (options) => {
  it('says the first change failed in every plan of a change set after its first', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    const first = await submit(url, 'plan');
    const second = await submit(url, 'plan');
    expect(first.json?.outcome).toBe('succeeded');
    expect(second.json?.outcome).toBe('failed');
    expect((second.json?.results as Array<{ outcome: string }>).map((r) => r.outcome)).toEqual(['failed', 'succeeded']);
    expect((await submit(url, 'plan', oneChange({ id: 'other', environment: 'test' }))).json?.outcome).toBe('succeeded');
    expect((await submit(url, 'apply')).json?.outcome).toBe('succeeded');
  });
});

fault('removed-plan-drift', (options) => {
  it('says the removed changes failed in every second plan of a change set, and leaves other changes and applies alone', async () => {
    const { url } = await start({ ...options, mode: 'sync' });
    const plans = [await submit(url, 'plan'), await submit(url, 'plan'), await submit(url, 'plan')];
    expect(plans.map((plan) => plan.json?.outcome)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect((plans[1]!.json?.results as Array<{ outcome: string }>).map((r) => r.outcome)).toEqual(['succeeded', 'failed']);
    const created = withActions('created', 'created');
    expect((await submit(url, 'plan', created)).json).toEqual((await submit(url, 'plan', created)).json);
    expect((await submit(url, 'apply')).json?.outcome).toBe('succeeded');
    expect((await submit(url, 'apply')).json?.outcome).toBe('succeeded');
  });
});

for (const [name, status] of [['full-503', 503], ['full-429', 429]] as const) {
  fault(name, (options) => {
    it(`answers ${status} JSON with Retry-After instead of running the call at once when maxOperations are in progress`, async () => {
      const { url } = await start({ ...options, mode: 'async', workMs: 5000, maxOperations: 2 });
      expect((await submit(url, 'apply')).status).toBe(202);
      expect((await submit(url, 'plan')).status).toBe(202);
      const full = await fetch(`${url}/apply`, { method: 'POST', body: JSON.stringify(SHOP_DB) });
      expect(full.status).toBe(status);
      expect(full.headers.get('content-type')).toBe(JSON_TYPE);
      expect(full.headers.get('retry-after')).toBe('1');
      expect(typeof ((await full.json()) as { error: unknown }).error).toBe('string');
    });
  });
}

fault('lost-on-restart', (options) => {
  it('answers 404 after a restart to an operation accepted before it, and knows new ones', async () => {
    const reference = await start({ ...options, mode: 'async', workMs: 200 });
    const before = await accepted(reference.url);
    expect((await read(reference.url, before)).status).toBe(200);
    await reference.restart();
    const lost = await read(reference.url, before);
    expect(lost.status).toBe(404);
    expect(lost.contentType).toBe(JSON_TYPE);
    expect((await readUntilFinal(reference.url, await accepted(reference.url))).at(-1)!.json?.outcome).toBe('succeeded');
  });
});

fault('restored-never-end', (options) => {
  it('keeps an operation in progress at the restart in_progress long after its work time; new ones finish', async () => {
    const reference = await start({ ...options, mode: 'async', workMs: 1000 });
    const before = await accepted(reference.url);
    await reference.restart();
    await sleep(1300);
    const stuck = await read(reference.url, before);
    expect(stuck.status).toBe(200);
    expect(stuck.json?.outcome).toBe('in_progress');
    expect((await readUntilFinal(reference.url, await accepted(reference.url))).at(-1)!.json?.outcome).toBe('succeeded');
  });

  it('leaves an operation that had ended before the restart final', async () => {
    const reference = await start({ ...options, mode: 'async', workMs: 30 });
    const before = await accepted(reference.url);
    expect((await readUntilFinal(reference.url, before)).at(-1)!.json?.outcome).toBe('succeeded');
    await reference.restart();
    expect((await read(reference.url, before)).json?.outcome).toBe('succeeded');
  });
});
