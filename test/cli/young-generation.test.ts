import { describe, expect, it } from 'vitest';
import { keepYoungGenerationSmall } from '../../src/cli/young-generation.js';

describe("the command line's young generation", () => {
  it('stops it growing, unless the user sized it with a flag of their own', () => {
    const set: string[] = [];
    const setFlags = (flags: string): void => void set.push(flags);
    expect(keepYoungGenerationSmall([], '', setFlags)).toBe(true);
    expect(set).toEqual(['--semi-space-growth-factor=1']);
    expect(keepYoungGenerationSmall(['--max-semi-space-size=64'], '', setFlags)).toBe(false);
    expect(keepYoungGenerationSmall([], '--max-old-space-size=512 --max_semi_space_size=8', setFlags)).toBe(false);
    expect(set).toHaveLength(1);
  });
});
