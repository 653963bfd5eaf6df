import { describe, expect, it } from 'vitest';
import { createStyle, shouldUseColor } from '../../src/report/style.js';

describe('shouldUseColor', () => {
  it('follows NO_COLOR, then FORCE_COLOR, then the terminal', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({}, {})).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldUseColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldUseColor({ isTTY: false }, { NO_COLOR: 'x', FORCE_COLOR: '1' })).toBe(false);
  });
});

describe('createStyle', () => {
  it('is plain text without colour', () => {
    expect(createStyle(false).red('x')).toBe('x');
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
  });
});
