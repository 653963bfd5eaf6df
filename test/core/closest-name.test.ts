import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance } from '../../src/core/closest-name.js';

describe('closestName', () => {
  it('finds the name a typo meant: a letter too many, missing, wrong, or two swapped', () => {
    const flags = ['--poll-interval', '--answer-timeout', '--burst'];
    expect(closestName('--poll-intervall', flags)).toBe('--poll-interval');
    expect(closestName('--answer-timout', flags)).toBe('--answer-timeout');
    expect(closestName('--brust', flags)).toBe('--burst');
    expect(closestName('runn', ['run', 'rules', 'serve'])).toBe('run');
  });

  it('suggests nothing when no name is close: a guess would mislead', () => {
    expect(closestName('frobnicate', ['run', 'rules', 'serve', 'verify', 'observe'])).toBeUndefined();
    expect(closestName('zzz', ['answer.status'])).toBeUndefined();
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('burst', 'brust')).toBe(1);
    expect(editDistance('', 'run')).toBe(3);
    expect(editDistance('run', 'run')).toBe(0);
  });

  it('as a hint: the closest name as a question, else where the names are listed', () => {
    expect(didYouMean('answer.statuss', ['answer.status', 'answer.json'], 'see the rules command')).toBe('did you mean answer.status?');
    expect(didYouMean('nothing-like-it', ['answer.status'], 'see the rules command')).toBe('see the rules command');
  });
});
