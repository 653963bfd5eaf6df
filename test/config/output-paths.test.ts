import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutputPaths, outputPathProblem } from '../../src/config/output-paths.js';
import { ConfigError } from '../../src/errors.js';

const DIR = mkdtempSync(join(tmpdir(), 'pc-outputs-'));
const FILE = join(DIR, 'a-file');
writeFileSync(FILE, 'x');
mkdirSync(join(DIR, 'a-folder'));

describe('an output path, checked before the run', () => {
  it('may be a new file in a folder that exists or can be made, or a file that can be written again', () => {
    expect(outputPathProblem(join(DIR, 'report.json'), false)).toBeUndefined();
    expect(outputPathProblem(join(DIR, 'new', 'deeper', 'report.json'), false)).toBeUndefined();
    expect(outputPathProblem(FILE, false)).toBeUndefined();
    expect(outputPathProblem(join(DIR, 'a-folder'), true)).toBeUndefined();
  });

  it('is refused under a regular file, with the file named', () => {
    expect(outputPathProblem(join(FILE, 'report.json'), false)).toBe(`${FILE} is a file, so ${join(FILE, 'report.json')} cannot be made under it`);
    expect(outputPathProblem(join(FILE, 'deeper', 'bundle'), true)).toBe(`${FILE} is a file, so ${join(FILE, 'deeper', 'bundle')} cannot be made under it`);
  });

  it('is refused when a file is a folder, or a folder a file', () => {
    expect(outputPathProblem(join(DIR, 'a-folder'), false)).toBe(`${join(DIR, 'a-folder')} is a folder, not a file`);
    expect(outputPathProblem(FILE, true)).toBe(`${FILE} is a file, not a folder`);
    expect(outputPathProblem('', false)).toBe('is empty: give a path');
  });

  it.skipIf(process.getuid?.() === 0)('is refused in a folder the kit may not write in', () => {
    const locked = join(DIR, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    expect(outputPathProblem(join(locked, 'report.json'), false)).toBe(`${locked} cannot be written in (permission denied)`);
  });

  it('is a config error naming the flag that asked for it, and the outputs not asked for stay absent', () => {
    expect(checkOutputPaths({ report: join(DIR, 'r.json'), junit: undefined })).toEqual({ report: join(DIR, 'r.json') });
    for (const [flag, outputs] of [['--report', { report: join(FILE, 'r.json') }], ['--bundle', { bundle: FILE }], ['--html', { html: join(DIR, 'a-folder') }]] as const) {
      let thrown: unknown;
      try {
        checkOutputPaths(outputs);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, flag).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).flag).toBe(flag);
      expect((thrown as ConfigError).code).toBe('KIT_CONFIG');
    }
  });
});
