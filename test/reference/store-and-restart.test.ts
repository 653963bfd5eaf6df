import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceProvisioner } from '../../src/reference/index.js';
import { accepted, read, readUntilFinal, referenceStarter, SHOP_DB, sleep, submit } from './support.js';

const start = referenceStarter();

function storeFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'pc-reference-store-')), 'operations.json');
}

describe('capacity', () => {
  it('runs a call at once and answers 200 with its final answer while maxOperations are in progress, and 202 again once one ended', async () => {
    const { url } = await start({ mode: 'async', workMs: 300, maxOperations: 1 });
    const first = await accepted(url);
    const full = await submit(url, 'plan');
    expect(full.status).toBe(200);
    expect(full.json?.outcome).toBe('succeeded');
    expect(full.json?.results).toHaveLength(2);
    await readUntilFinal(url, first);
    expect((await submit(url, 'apply')).status).toBe(202);
  });
});

describe('restart()', () => {
  it('keeps the port, refuses connections while it is down, and still knows an operation accepted before it, which then ends', async () => {
    const reference = await start({ mode: 'async', workMs: 400, restartPauseMs: 1000 });
    const id = await accepted(reference.url);
    const restarted = reference.restart();
    await sleep(200);
    await expect(fetch(`${reference.url}/operations/${id}`)).rejects.toThrow();
    await restarted;
    const after = await read(reference.url, id);
    expect(after.status).toBe(200);
    const final = (await readUntilFinal(reference.url, id)).at(-1)!;
    expect(final.json?.outcome).toBe('succeeded');
    expect(final.json?.results).toHaveLength(2);
  });

  it('finishes after the restart work that was in progress at it', async () => {
    const reference = await start({ mode: 'async', workMs: 2000 });
    const id = await accepted(reference.url);
    await reference.restart();
    expect((await read(reference.url, id)).json?.outcome).toBe('in_progress');
    expect((await readUntilFinal(reference.url, id, 50, 5000)).at(-1)!.json?.outcome).toBe('succeeded');
  });

  it('keeps the calls it has seen, as a provisioner keeps them in its database', async () => {
    // A fault that refuses repeats shows what the reference remembers of earlier calls.
    const reference = await start({ mode: 'sync', fault: 'status-409-on-repeat' });
    expect((await submit(reference.url, 'apply')).status).toBe(200);
    expect((await submit(reference.url, 'apply')).status).toBe(409);
    await reference.restart();
    expect((await submit(reference.url, 'apply')).status).toBe(409);
  });

  it('goes on with its source of operation ids: ids a restart gives are new', async () => {
    // Counted ids (a fault's) would start again at op-1 if the source were lost with the process's memory.
    const reference = await start({ mode: 'async', fault: 'non-uuid-operation-id' });
    const before = await accepted(reference.url);
    await reference.restart();
    const after = await accepted(reference.url);
    expect(after).not.toBe(before);
  });

  it('is refused once the reference is closed', async () => {
    const reference = await startReferenceProvisioner({ mode: 'async' });
    await reference.close();
    await expect(reference.restart()).rejects.toThrow(/closed/);
  });
});

describe('a store file', () => {
  it('lets a reference started later on the same file and port know and finish the operations of one that stopped', async () => {
    const file = storeFile();
    const first = await startReferenceProvisioner({ mode: 'async', workMs: 300, storeFile: file });
    const id = await accepted(first.url);
    await first.close();
    const port = Number(new URL(first.url).port);
    const second = await start({ mode: 'async', workMs: 300, storeFile: file, port });
    expect(second.url).toBe(first.url);
    expect((await read(second.url, id)).status).toBe(200);
    expect((await readUntilFinal(second.url, id)).at(-1)!.json?.outcome).toBe('succeeded');
  });

  it('holds the operations as versioned JSON, written by replacing the file so that no temporary file stays', async () => {
    const file = storeFile();
    const reference = await start({ mode: 'async', workMs: 60_000, storeFile: file });
    const id = await accepted(reference.url);
    const document = JSON.parse(readFileSync(file, 'utf8')) as { format: string; version: number; operations: Array<Record<string, unknown>> };
    expect(document.format).toBe('provisioner-conformance reference store');
    expect(document.version).toBe(1);
    expect(document.operations).toHaveLength(1);
    const [stored] = document.operations;
    expect(stored).toMatchObject({ id, kind: 'apply', changeSet: { changes: SHOP_DB.changes }, final: { outcome: 'succeeded' } });
    expect(Number(stored!.finishesAt) - Number(stored!.acceptedAt)).toBe(60_000);
    expect(readdirSync(join(file, '..'))).toEqual(['operations.json']);
  });

  it('refuses to start on a file that is not a reference store, and leaves it alone', async () => {
    const file = storeFile();
    writeFileSync(file, '{"something": "else"}');
    await expect(startReferenceProvisioner({ storeFile: file })).rejects.toThrow(/is not a reference store/);
    expect(readFileSync(file, 'utf8')).toBe('{"something": "else"}');
  });

  it('is created when it does not exist yet', async () => {
    const file = storeFile();
    expect(existsSync(file)).toBe(false);
    await start({ storeFile: file });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ operations: [] });
  });
});

describe('forgetting', () => {
  it('keeps running work however long it runs, and forgets it maxOperationDurationMs after its work ended', async () => {
    const { url } = await start({ mode: 'async', workMs: 400, maxOperationDurationMs: 150 });
    const id = await accepted(url);
    await sleep(250);
    expect((await read(url, id)).json?.outcome).toBe('in_progress');
    expect((await readUntilFinal(url, id)).at(-1)!.json?.outcome).toBe('succeeded');
    await sleep(300);
    expect((await read(url, id)).status).toBe(404);
  });

  it('forgets in the store as well, so a restart does not bring a forgotten operation back', async () => {
    const reference = await start({ mode: 'async', workMs: 20, maxOperationDurationMs: 100 });
    const id = await accepted(reference.url);
    await sleep(200);
    expect((await read(reference.url, id)).status).toBe(404);
    await reference.restart();
    expect((await read(reference.url, id)).status).toBe(404);
  });
});

describe('repeats in the correct reference', () => {
  it('gives a repeat sent while the first apply runs the same final answer, and two plans the same outcome', async () => {
    const { url } = await start({ mode: 'async', workMs: 200 });
    const [first, repeat] = [await accepted(url), await accepted(url)];
    const [a, b] = await Promise.all([readUntilFinal(url, first), readUntilFinal(url, repeat)]);
    expect(b.at(-1)!.text).toBe(a.at(-1)!.text);
    const later = (await readUntilFinal(url, await accepted(url))).at(-1)!;
    expect(later.text).toBe(a.at(-1)!.text);
    const plans = await Promise.all([accepted(url, 'plan'), accepted(url, 'plan')]);
    const [p, q] = await Promise.all(plans.map((plan) => readUntilFinal(url, plan)));
    expect(q.at(-1)!.text).toBe(p.at(-1)!.text);
  });
});
