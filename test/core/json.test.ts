import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, jsonSyntaxError, lineAndColumn } from '../../src/core/json.js';

function errorOf(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error('it parsed');
}

describe('where a text that is not JSON goes wrong', () => {
  it('is nowhere for JSON, whatever its shape', () => {
    for (const text of ['{}', '[]', ' 1 ', '"a\\u00e9\\n"', '{"a": [1, -2.5e3, true, false, null, {"b": "c"}]}', '\n[\n]\n']) {
      expect(jsonErrorOffset(text), text).toBeUndefined();
    }
  });

  it('is the first character JSON.parse refuses', () => {
    expect(jsonErrorOffset('')).toBe(0);
    expect(jsonErrorOffset('{"a": x}')).toBe(6);
    expect(jsonErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonErrorOffset('[1 2]')).toBe(3);
    expect(jsonErrorOffset('{"a": tru}')).toBe(9);
    expect(jsonErrorOffset('{"a": 1} x')).toBe(9);
    expect(jsonErrorOffset('"\\q"')).toBe(2);
    expect(jsonErrorOffset('{"a": 01}')).toBe(7);
  });

  it('is told as a line and a column, counted from 1', () => {
    expect(lineAndColumn('ab\ncd\nef', 7)).toEqual({ line: 3, column: 2 });
    const text = '{\n  "a": 1,\n  "b": ?\n}';
    expect(jsonSyntaxError(text, errorOf(text))).toMatch(/ at line 3, column 8$/);
    expect(jsonSyntaxError('{"a":1', errorOf('{"a":1'))).toBe('Expected \',\' or \'}\' after property value at line 1, column 7');
  });
});
