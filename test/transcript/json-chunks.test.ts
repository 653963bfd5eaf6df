import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks, StreamedList, writeJsonFile } from '../../src/transcript/json-chunks.js';
import { SecretMask } from '../../src/report/secret-mask.js';

const text = (value: unknown, gap = ''): string => [...jsonChunks(value, gap)].join('');

/** A JSON value in which some arrays are streamed lists, and the plain value it stands for. */
const withStreamedLists = fc.letrec<{ tree: [unknown, unknown] }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }).map((value): [unknown, unknown] => [value, value]),
    fc.array(tie('tree'), { maxLength: 4 }).map((items): [unknown, unknown] => [new StreamedList(() => items.map(([streamed]) => streamed)), items.map(([, plain]) => plain)]),
    fc.dictionary(fc.string(), tie('tree'), { maxKeys: 4 }).map((entries): [unknown, unknown] => [
      Object.fromEntries(Object.entries(entries).map(([key, [streamed]]) => [key, streamed])),
      Object.fromEntries(Object.entries(entries).map(([key, [, plain]]) => [key, plain])),
    ]),
  ),
})).tree;

describe('jsonChunks', () => {
  it('joins to the text JSON.stringify writes, compact and indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('', '  ', '\t'), (value, gap) => {
        expect(text(value, gap)).toBe(JSON.stringify(value, null, gap));
      }),
    );
  });

  it('writes a streamed list as the array it stands for', () => {
    fc.assert(
      fc.property(withStreamedLists, fc.constantFrom('', '  '), ([streamed, plain], gap) => {
        expect(text(streamed, gap)).toBe(JSON.stringify(plain, null, gap));
        expect(JSON.stringify(streamed, null, gap)).toBe(JSON.stringify(plain, null, gap));
      }),
    );
  });

  it('skips what JSON.stringify skips and applies toJSON once', () => {
    const value = { a: undefined, b: () => 1, c: [undefined, () => 1, Symbol('s')], d: new Date(0), e: { toJSON: () => ({ toJSON: () => 'twice' }) }, f: new String('boxed'), g: [] };
    expect(text(value, '  ')).toBe(JSON.stringify(value, null, '  '));
    expect(text(value)).toBe(JSON.stringify(value));
  });

  it('applies toJSON once to the items of a streamed list too, and writes each plain item as one piece', () => {
    const items = [{ a: 1, b: [2, { c: 'x' }] }, new Date(0), { toJSON: () => ({ toJSON: () => 'twice' }) }, undefined];
    for (const gap of ['', '  ']) expect(text({ list: new StreamedList(() => items) }, gap)).toBe(JSON.stringify({ list: items }, null, gap));
    const pieces = [...jsonChunks(new StreamedList(() => [{ a: 1, b: [2, { c: 'x' }] }]))];
    expect(pieces).toEqual(['[', '{"a":1,"b":[2,{"c":"x"}]}', ']']);
  });

  it('cuts an item of a streamed list whose text is long, so that its long strings are pieces of their own', () => {
    const long = 'y'.repeat(20_000);
    const items = [{ a: 1 }, { body: long, json: { description: long } }];
    for (const gap of ['', '  ']) expect(text(new StreamedList(() => items), gap)).toBe(JSON.stringify(items, null, gap));
    const pieces = [...jsonChunks(new StreamedList(() => items))];
    expect(pieces.filter((piece) => piece.includes(long))).toEqual([JSON.stringify(long), JSON.stringify(long)]);
    expect(pieces[1]).toBe('{"a":1}');
  });

  it("makes a long item's text once: the text JSON.stringify writes, each toJSON within it applied once", () => {
    let made = 0;
    const stamp = {
      toJSON: () => {
        made++;
        return 'stamped';
      },
    };
    const items = [{ body: 'y'.repeat(20_000), stamp, nested: [{ stamp }] }];
    for (const gap of ['', '  ']) {
      made = 0;
      const pieces = [...jsonChunks(new StreamedList(() => items), gap)];
      expect(made).toBe(2);
      expect(pieces.join('')).toBe(JSON.stringify(items, null, gap));
      expect(pieces.length).toBeGreaterThan(3);
    }
  });

  it('cuts a long item only outside its strings, and never between a name and its value', () => {
    const long = fc.tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.integer({ min: 200, max: 6000 })).map(([unit, times]) => unit.repeat(times));
    const value = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), long, fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }));
    const item = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(value, fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 5 })), { maxKeys: 30 });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 3 }), fc.constantFrom('', '  '), (items, gap) => {
        const pieces = [...jsonChunks(new StreamedList(() => items), gap)];
        expect(pieces.join('')).toBe(JSON.stringify(items, null, gap));
        for (const [i, piece] of pieces.entries()) {
          // Every quote not escaped opens or closes a string held whole in the piece.
          expect(piece.match(/(?<!\\)(?:\\\\)*"/g)?.length ?? 0).toSatisfy((quotes: number) => quotes % 2 === 0);
          // A name is parted from its value only when the value is a string too long to share a piece.
          if (/: ?$/.test(piece)) expect(pieces[i + 1]).toSatisfy((next: string) => next.length > 16 * 1024 && next.startsWith('"') && next.endsWith('"'));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps a short header value with its name in a long item, so that a mask of each piece hides it', () => {
    const mask = new SecretMask().addHeader('x-env', 'dev');
    const items = [{ request: { headers: { 'x-env': 'dev' } }, body: 'y'.repeat(20_000) }];
    for (const gap of ['', '  ']) {
      const masked = [...jsonChunks(new StreamedList(() => items), gap)].map((piece) => mask.json(piece)).join('');
      expect(JSON.parse(masked)).toEqual([{ request: { headers: { 'x-env': '[redacted]' } }, body: items[0]!.body }]);
    }
  });

  it('writes a value nested deeper than it walks through JSON.stringify, with the same indent', () => {
    const deep = JSON.parse(`${'{"a":['.repeat(40)}1${']}'.repeat(40)}`) as unknown;
    expect(text({ rules: [deep] }, '  ')).toBe(JSON.stringify({ rules: [deep] }, null, '  '));
  });

  it('makes the items of a streamed list only while they are written', () => {
    let made = 0;
    const list = new StreamedList(function* () {
      for (let i = 0; i < 3; i++) {
        made++;
        yield { i };
      }
    });
    const chunks = jsonChunks({ list });
    expect(made).toBe(0);
    chunks.next();
    chunks.next();
    expect(made).toBe(1);
    expect([...chunks].length).toBeGreaterThan(0);
    expect(made).toBe(3);
  });
});

describe('writeJsonFile', () => {
  it('writes the text and a newline, creating the directory, in pieces larger than one write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pc-json-chunks-'));
    try {
      const path = join(dir, 'a', 'b.json');
      const value = { items: new StreamedList(() => Array.from({ length: 3000 }, (_, i) => ({ i, text: 'é'.repeat(40) }))) };
      await writeJsonFile(path, value, '  ');
      expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(value, null, '  ')}\n`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
