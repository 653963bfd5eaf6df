import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarEntryScanner, harExchange, readHarEntries } from '../../src/transcript/har.js';

const ENTRY = {
  startedDateTime: '2026-01-02T03:04:05.000Z',
  time: 42,
  request: {
    method: 'POST',
    url: 'https://provisioner.example/plan?x=1',
    headers: [{ name: 'Content-Type', value: 'application/json' }, { name: ':authority', value: 'provisioner.example' }, { name: 'X-Two', value: 'a' }, { name: 'x-two', value: 'b' }],
    postData: { mimeType: 'application/json', text: '{"changes":[{"id":"a \\"}{[ b","environment":"test"}]}' },
  },
  response: {
    status: 202,
    headers: [{ name: 'Content-Type', value: 'application/json' }],
    content: { size: 20, mimeType: 'application/json', text: Buffer.from('{"operationId":"x"}').toString('base64'), encoding: 'base64' },
  },
  timings: { send: 1, wait: 30, receive: 11 },
};

/** A HAR document with decoys: an `entries` key outside log, and strings full of brackets, quotes and escapes. */
const DOCUMENT = JSON.stringify({
  log: {
    version: '1.2',
    creator: { name: 'test "entries": [', version: '1' },
    pages: [{ id: 'p', title: 'entries', entries: [{ not: 'an entry' }] }],
    entries: [ENTRY, { ...ENTRY, startedDateTime: '2026-01-02T03:04:06.000Z', response: { status: 0, headers: [], content: {}, _error: 'net::ERR_CONNECTION_REFUSED' } }],
  },
  entries: [{ decoy: true }],
}, null, 1);

describe('the HAR reader', () => {
  it('finds log.entries whatever the text is cut into, and nothing else', () => {
    for (const size of [1, 7, 64, DOCUMENT.length]) {
      const scanner = new HarEntryScanner();
      const entries: unknown[] = [];
      for (let i = 0; i < DOCUMENT.length; i += size) entries.push(...scanner.push(DOCUMENT.slice(i, i + size)));
      scanner.end();
      expect(entries).toHaveLength(2);
      expect(entries[0]).toEqual(ENTRY);
    }
  });

  it('reads a file as a stream, and turns entries into exchanges: headers, base64 bodies, times, status 0 as a transport error', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pc-har-')), 'traffic.har');
    writeFileSync(file, DOCUMENT);
    const entries: unknown[] = [];
    for await (const entry of readHarEntries(file)) entries.push(entry);
    const [answered, refused] = entries.map(harExchange);
    expect(answered).toMatchObject({
      method: 'POST',
      path: '/plan?x=1',
      requestHeaders: { 'content-type': 'application/json', 'x-two': 'a, b' },
      sentAt: Date.parse('2026-01-02T03:04:05.000Z'),
      respondedAt: Date.parse('2026-01-02T03:04:05.000Z') + 31,
      endedAt: Date.parse('2026-01-02T03:04:05.000Z') + 42,
    });
    expect(answered && 'response' in answered && Buffer.concat(answered.response?.chunks ?? []).toString()).toBe('{"operationId":"x"}');
    expect(refused).toMatchObject({ error: { kind: 'other', message: 'net::ERR_CONNECTION_REFUSED' } });
    expect(harExchange({ request: { method: 'GET', url: '/relative' }, startedDateTime: 'x' })).toEqual({ problem: 'an entry\'s URL "/relative" is not absolute' });
  });

  it('refuses a document that is no HAR, and one cut inside an entry', () => {
    const notHar = new HarEntryScanner();
    notHar.push('{"entries":[{"a":1}]}');
    expect(() => notHar.end()).toThrow(/not a HAR file/);
    const cut = new HarEntryScanner();
    cut.push(DOCUMENT.slice(0, DOCUMENT.indexOf('"timings"')));
    expect(() => cut.end()).toThrow(/ends inside an entry/);
  });
});
