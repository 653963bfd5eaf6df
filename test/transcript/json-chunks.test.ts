import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks, StreamedList, writeJsonFile } from '../../src/transcript/json-chunks.js';

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

  it('walks an item of a streamed list whose text is long, so that its long strings are pieces of their own', () => {
    const long = 'y'.repeat(20_000);
    const items = [{ a: 1 }, { body: long, json: { description: long } }];
    for (const gap of ['', '  ']) expect(text(new StreamedList(() => items), gap)).toBe(JSON.stringify(items, null, gap));
    const pieces = [...jsonChunks(new StreamedList(() => items))];
    expect(pieces.filter((piece) => piece.includes(long))).toEqual([JSON.stringify(long), JSON.stringify(long)]);
    expect(pieces[1]).toBe('{"a":1}');
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
