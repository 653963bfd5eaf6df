import { describe, expect, it } from 'vitest';
import { styledWidth, wrapColumns } from '../../src/report/columns.js';

describe('text wrapped to a width', () => {
  it('breaks between words, later rows indented, and leaves nothing out', () => {
    const rows = wrapColumns('the control plane would record succeeded after 1.0s', 24, '    ');
    expect(rows).toEqual(['the control plane would', '    record succeeded', '    after 1.0s']);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(24);
  });

  it('cuts a word wider than a row inside it, and keeps a text that fits as it is', () => {
    expect(wrapColumns('id 0123456789abcdef', 8, '  ')).toEqual(['id', '  012345', '  6789ab', '  cdef']);
    expect(wrapColumns('  two  spaces kept', 40)).toEqual(['  two  spaces kept']);
  });

  it('counts no column for colour codes and never splits one', () => {
    const styled = '\u001b[2m•\u001b[22m plan shop-db \u001b[31mfailed\u001b[39m after 2.0s';
    expect(styledWidth(styled)).toBe('• plan shop-db failed after 2.0s'.length);
    const rows = wrapColumns(styled, 21);
    expect(rows).toEqual(['\u001b[2m•\u001b[22m plan shop-db \u001b[31mfailed\u001b[39m', 'after 2.0s']);
  });
});
