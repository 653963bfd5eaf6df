import { describe, expect, it } from 'vitest';
import { yargsRefusal, type YargsUsage } from '../../src/cli/yargs-refusal.js';

/** What yargs knows inside `run`: its flags, no subcommands. */
const RUN: YargsUsage = { getDescriptions: () => ({ help: '', 'poll-interval': '', burst: '', profile: '' }), getCommands: () => [] };
/** What yargs knows before a command: the commands. */
const TOP: YargsUsage = { getDescriptions: () => ({ help: '', version: '' }), getCommands: () => [['run', ''], ['rules', ''], ['verify [transcript]', '']] };

describe('a command line yargs refused', () => {
  it('names an unknown flag as written, once, with the closest known flag', () => {
    const error = yargsRefusal('Unknown arguments: poll-intervall, pollIntervall', ['run', '--poll-intervall', 'PT1S'], RUN);
    expect(error.message).toBe('unknown flag "--poll-intervall" (did you mean --poll-interval?)');
    expect(error.hint).toBe('did you mean --poll-interval?');
  });

  it('leaves the hint to --help when no flag is close', () => {
    expect(yargsRefusal('Unknown argument: bogus', ['run', '--bogus'], RUN)).toMatchObject({ message: 'unknown flag "--bogus"', hint: undefined });
  });

  it('names an unknown command with the closest command, else lists the commands', () => {
    expect(yargsRefusal('Unknown argument: runn', ['runn'], TOP).message).toBe('unknown command "runn" (did you mean run?)');
    expect(yargsRefusal('Unknown argument: frobnicate', ['frobnicate'], TOP).message).toBe('unknown command "frobnicate" (the commands: run, rules, verify)');
  });

  it('names a word after a command as an unexpected argument', () => {
    expect(yargsRefusal('Unknown argument: extra', ['run', 'extra'], RUN).message).toBe('unexpected argument "extra"');
  });

  it('says a value that is not a choice with the flag, the value quoted and the closest choice', () => {
    const message = 'Invalid values:\n  Argument: profile, Given: "quik", Choices: "quick", "ci", "certify"';
    expect(yargsRefusal(message, ['run', '--profile', 'quik'], RUN).message).toBe('--profile: "quik" is not one of quick, ci, certify (did you mean quick?)');
  });

  it('names a flag given without its value', () => {
    expect(yargsRefusal('Not enough arguments following: poll-interval', ['run', '--poll-interval'], RUN).message).toBe('--poll-interval: needs a value');
  });

  it('keeps any other refusal on one line', () => {
    expect(yargsRefusal('Not enough non-option arguments:\n got 0, need at least 1', ['check-registration']).message).toBe('Not enough non-option arguments: got 0, need at least 1');
  });
});
