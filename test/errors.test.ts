import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  exitCodeOf,
  InternalError,
  KitError,
  RestartFailedError,
  UsageError,
  kitErrorVerdict,
  OutputError,
  EnvironmentError,
  type KitErrorCode,
  unreadableFile,
} from '../src/errors.js';

describe('kit errors', () => {
  it('map each stable code to a verdict and an exit code in one table', () => {
    const table = (['KIT_USAGE', 'KIT_CONFIG', 'KIT_TARGET_UNREACHABLE', 'KIT_INTERNAL', 'KIT_RESTART_FAILED', 'KIT_OUTPUT', 'KIT_ENVIRONMENT'] as const).map(
      (code: KitErrorCode) => [code, kitErrorVerdict(code), exitCodeOf(code)],
    );
    expect(table).toEqual([
      ['KIT_USAGE', 'error', 2],
      ['KIT_CONFIG', 'error', 2],
      ['KIT_TARGET_UNREACHABLE', 'unreachable', 3],
      ['KIT_INTERNAL', 'error', 2],
      ['KIT_RESTART_FAILED', 'error', 2],
      ['KIT_OUTPUT', 'error', 2],
      ['KIT_ENVIRONMENT', 'error', 2],
    ]);
  });

  it('carry their code, verdict and exit code, and say what went wrong in one line', () => {
    const errors: KitError[] = [
      new UsageError('--poll-interval', '"soon" is not an ISO 8601 duration'),
      new ConfigError('--change-set', 'cannot read a.json: ENOENT'),
      new OutputError('--report', '/dev/full', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })),
      new EnvironmentError('cannot open /var/x: permission denied (EACCES)'),
      new InternalError('a judge threw', { cause: new TypeError('boom') }),
      new RestartFailedError('the restart command "systemctl restart provisioner" failed: exit code 1', 'unit provisioner.service not found\n'),
    ];
    expect(errors.map((error) => [error.code, error.verdict, error.exitCode, error.message])).toEqual([
      ['KIT_USAGE', 'error', 2, '--poll-interval: "soon" is not an ISO 8601 duration'],
      ['KIT_CONFIG', 'error', 2, '--change-set: cannot read a.json: ENOENT'],
      ['KIT_OUTPUT', 'error', 2, '--report /dev/full: cannot write it: no space left on the device (ENOSPC)'],
      ['KIT_ENVIRONMENT', 'error', 2, 'cannot open /var/x: permission denied (EACCES)'],
      ['KIT_INTERNAL', 'error', 2, 'a judge threw'],
      ['KIT_RESTART_FAILED', 'error', 2, 'the restart command "systemctl restart provisioner" failed: exit code 1; its output: unit provisioner.service not found'],
    ]);
    expect(errors.every((error) => error instanceof KitError && error instanceof Error)).toBe(true);
    expect((errors[4]!.cause as Error).message).toBe('boom');
  });
});

describe('the words of a usage or config error', () => {
  it('end with its own hint, kept apart for the CLI to add no other', () => {
    const error = new UsageError('--only', 'unknown rule id "x"', 'see the rules command');
    expect(error.message).toBe('--only: unknown rule id "x" (see the rules command)');
    expect(error.hint).toBe('see the rules command');
    expect(new ConfigError('--har', 'cannot read x').hint).toBeUndefined();
  });

  it('say an input file that cannot be read the same way for every flag', () => {
    const missing = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    expect(unreadableFile('--har', 'nope.har', missing)).toMatchObject({ code: 'KIT_CONFIG', message: '--har: cannot read nope.har: no such file or folder (ENOENT)' });
    expect(unreadableFile('transcript', 't.json', new Error('odd')).message).toBe('transcript: cannot read t.json: odd');
  });
});
